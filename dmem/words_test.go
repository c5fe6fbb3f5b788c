package dmem

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/internal/vecindex"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/option"
	"github.com/tmc/langchaingo/schema"
)

// Evictions empty slots of the words index; rebuilds keep it within a third
// more than the resident units, every resident unit in its slot, and what
// remains findable by its words.
func TestWordsIndexCompacts(t *testing.T) {
	m := newMemory(t, option.WithMaxUnits(50), WithShortTerm(0), option.WithTokenBudget(100))
	for i := range 400 {
		doc := schema.Document{PageContent: fmt.Sprintf("%s moved to %s in %d (note %d).", fxNames[i%len(fxNames)], fxCities[i%len(fxCities)], 1900+i, i)}
		if _, err := m.AddDocuments(bg, []schema.Document{doc}); err != nil {
			t.Fatal(err)
		}
	}
	m.mu.RLock()
	n, resident := m.words.Len(), len(m.byID)
	for _, u := range m.byID {
		if m.words.unit(u.slot) != u {
			m.mu.RUnlock()
			t.Fatalf("unit %s is not in its slot %d", u.ID, u.slot)
		}
	}
	var kept *unit
	for _, u := range m.heap {
		if kept == nil || u.Seq < kept.Seq {
			kept = u
		}
	}
	m.mu.RUnlock()
	if n > resident+max(64, resident/3) {
		t.Fatalf("words index has %d slots for %d resident units", n, resident)
	}
	year := strings.Fields(kept.Text)[5] // "<name> moved to <city> in <year> …"
	if h := load(t, m, "Who moved in "+year+"?"); !strings.Contains(h, kept.Text) {
		t.Fatalf("the oldest resident unit %q is not found by its year:\n%s", kept.Text, h)
	}
}

// A resident unit's embedding is its row in the words index, which the
// index moves when it drops the slots of units that left, and whose
// compared part the chromem-go index shares: after evictions and
// rebuilds, every unit still holds its own text's vector, the index finds
// each by it, a unit that left keeps a copy, and what Units hands out
// does not change after. The rows are packed (the default embedder's
// hashed part in int8), so a unit's vector is its text's to a cosine of
// 0.999, closer than any two texts' that merging would tell apart.
func TestEmbeddingsSurviveRebuilds(t *testing.T) {
	m := newMemory(t, option.WithMaxUnits(40))
	e := m.opts.Embedder
	var out []engram.Unit
	var before [][]float32
	for i := range 400 {
		save(t, m, fmt.Sprintf("Note %d: the %d blue %s sit by crate %d.", i, i*7919%1009, []string{"boxes", "lamps", "kites", "jars"}[i%4], i%13), fmt.Sprintf("Filed %d.", i))
		if i == 100 {
			out = m.Units()
			for _, u := range out {
				before = append(before, slices.Clone(u.Embedding))
			}
		}
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.words.empty == 0 && len(m.gone) == 0 {
		t.Fatal("nothing left the memory: the test needs evictions")
	}
	for _, u := range m.byID {
		v, err := e.EmbedQuery(bg, u.Text)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := vecindex.Normalised(v)
		if c := cosine(m.words.vector(u), want); c < 0.999 {
			t.Fatalf("unit %s (%q) holds another vector than its text's: cosine %v", u.ID, u.Text, c)
		}
		if !m.words.rows.Packed() || u.Embedding != nil {
			t.Fatalf("unit %s keeps a vector beside its packed row", u.ID)
		}
		if u.indexed {
			hits, err := m.ix.Nearest(bg, m.words.indexed(u), 1)
			if err != nil || len(hits) == 0 || hits[0].Sim < 0.9999 {
				t.Fatalf("the index does not find unit %s by its own vector: %v %v", u.ID, hits, err)
			}
		}
	}
	for id, u := range m.gone {
		if u.Embedding != nil && len(u.Embedding) != m.st.Dim {
			t.Fatalf("departed unit %s keeps %d components of its vector", id, len(u.Embedding))
		}
	}
	for i, u := range out {
		if !slices.Equal(u.Embedding, before[i]) {
			t.Fatalf("unit %s as Units handed it out changed afterwards", u.ID)
		}
	}
}

// cosine returns the cosine of a and b.
func cosine(a, b []float32) float64 {
	return relevance.Dot(a, b) / math.Sqrt(relevance.Dot(a, a)*relevance.Dot(b, b))
}

// What a durable memory writes is each unit's vector as it was: the store
// encodes its records after the save lets go of the memory, when the
// unit's row may have moved. Reopened, every unit holds its text's vector.
func TestStoredEmbeddingsSurviveRebuilds(t *testing.T) {
	dir := t.TempDir()
	m := newMemory(t, option.WithMaxUnits(40), WithPath(dir))
	for i := range 300 {
		save(t, m, fmt.Sprintf("Note %d: the %d red %s sit by shelf %d.", i, i*7919%1009, []string{"cups", "pens", "maps", "keys"}[i%4], i%11), fmt.Sprintf("Kept %d.", i))
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	m = newMemory(t, WithPath(dir))
	units := m.Units()
	if len(units) == 0 {
		t.Fatal("nothing reopened")
	}
	for _, u := range units {
		v, err := m.opts.Embedder.EmbedQuery(bg, u.Text)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := vecindex.Normalised(v); cosine(u.Embedding, want) < 0.999 {
			t.Fatalf("unit %s (%q) reopened with another vector than its text's", u.ID, u.Text)
		}
	}
}
