package ratedistortion

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/option"
)

// gatheredFacts fills a buffer past a lowered gather threshold with a fact,
// its newer value (which shares no word with the question) early on, and
// hundreds of fillers about other cities after it.
func gatheredFacts(t *testing.T) *Buffer {
	t.Helper()
	const (
		old = "Omar: I live in Lisbon, in a little flat above a bakery."
		nu  = "Ana: The printer on the third floor jammed twice before lunch."
	)
	k := &keyed{facts: map[string][]engram.Fact{old: {omarCity("Lisbon")}, nu: {omarCity("Edinburgh")}}}
	b := newBuffer(t, option.WithTokenBudget(256), option.WithFacts(k.extract))
	b.nearAbove = 100
	nouns := []string{"garden", "tomato", "football", "traffic", "lunch", "printer", "movie", "train", "guitar", "budget", "weather", "kitchen", "bicycle", "novel", "meeting"}
	adjs := []string{"noisy", "late", "broken", "lovely", "expensive", "slow", "fresh", "strange"}
	for i := range 1000 {
		if i == 100 {
			save(t, b, old, "Ana: Lovely, I hope the bread is good.")
		}
		if i == 700 {
			save(t, b, "Ben: Coffee machine broke again.", nu)
		}
		n, a := nouns[i%len(nouns)], adjs[(i/len(nouns))%len(adjs)]
		in := fmt.Sprintf("Ana: The %s was %s on day %d.", n, a, i)
		if i%5 == 0 { // a neighbour's home city, stated in passing
			k.mu.Lock()
			k.facts[in] = []engram.Fact{{Subject: "Omar", Relation: fmt.Sprintf("city visited in trip %d", i), Value: fmt.Sprintf("Town%d", i)}}
			k.mu.Unlock()
		}
		save(t, b, in, fmt.Sprintf("Ben: A %s %s, %d of them.", a, n, i))
	}
	return b
}

// A gathered load's relevance array is pooled; supersede (facts.Ask,
// facts.Supersede) writes into it outside the gathered documents, so the
// load marks it wide: its best are taken over every unit, and Release
// clears it all. The next load's array holds nothing of this one's, and
// the fact's newest statement, which shares no word with the question and
// was not gathered, is shown as an exact load shows it.
func TestGatheredFactsLeaveNoTrace(t *testing.T) {
	b := gatheredFacts(t)
	const q = "Which city does Omar live in?"
	v, err := b.opts.Embedder.EmbedQuery(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	qvec := embed.Normalized(v)

	b.mu.Lock()
	rel := b.relevance(q, qvec, 0)
	if b.gathered.Rel == nil || !b.gathered.Wide {
		b.mu.Unlock()
		t.Fatalf("the load gathered %v, wide %v: the test needs a wide gathered load", b.gathered.Rel != nil, b.gathered.Wide)
	}
	docs := slices.Clone(b.gathered.Docs)
	b.supersede(rel, qvec)
	outside := 0
	for d, x := range rel {
		if _, in := slices.BinarySearch(docs, d); !in && x != 0 {
			outside++
		}
	}
	b.gathered.Release()
	b.gathered = relevance.Gathered{}
	g := relevance.Gather(relevance.NewQuery("zebra xylophone", nil), b.lexical(), matrixPool{pool(b.pool), b}, nil, 8, 8, nil)
	var dirty []string
	for d, x := range g.Rel {
		if _, in := slices.BinarySearch(g.Docs, d); !in && x != 0 {
			dirty = append(dirty, fmt.Sprintf("%d = %.3f", d, x))
		}
	}
	g.Release()
	b.mu.Unlock()
	if outside == 0 {
		t.Error("supersede wrote nothing outside the gathered units: the test does not reach what it checks")
	}
	if len(dirty) > 0 {
		t.Errorf("the next Gather's array holds %d values it did not write: %s", len(dirty), strings.Join(dirty, ", "))
	}
	if h := load(t, b, q); !strings.Contains(h, "third floor jammed") {
		t.Errorf("the newest statement of Omar's city is not shown:\n%s", h)
	}
}

// Loads and saves from several goroutines on a buffer past the (lowered)
// gather threshold, for the race detector.
func TestConcurrentGatheredLoads(t *testing.T) {
	b := newBuffer(t, option.WithTokenBudget(256))
	b.nearAbove = 100
	for i := range 200 {
		save(t, b, fmt.Sprintf("Turn %d about the garden and tomato %d.", i, i%17), fmt.Sprintf("Reply %d.", i))
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				if w%2 == 0 {
					if _, err := b.LoadMemoryVariables(context.Background(), map[string]any{"input": fmt.Sprintf("What about tomato %d?", i%17)}); err != nil {
						t.Error(err)
						return
					}
				} else if err := b.SaveContext(context.Background(), map[string]any{"input": fmt.Sprintf("More on tomato %d from %d.", i, w)},
					map[string]any{"output": "Ok."}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// oddEmbedder gives each text a small hashed vector; texts holding "NAN",
// "INF" or "ZERO" get such a vector, and dim can change between calls.
type oddEmbedder struct {
	mu  sync.Mutex
	dim int
}

func (e *oddEmbedder) vec(s string) []float32 {
	e.mu.Lock()
	d := e.dim
	e.mu.Unlock()
	v := make([]float32, d)
	for i := range v {
		v[i] = 0.05 * float32(i%3+1)
	}
	for i, w := range strings.Fields(strings.ToLower(s)) {
		v[(len(w)*31+i)%d] += 1
	}
	switch {
	case strings.Contains(s, "NAN"):
		v[0] = float32(math.NaN())
	case strings.Contains(s, "INF"):
		v[0] = float32(math.Inf(1))
	case strings.Contains(s, "ZERO"):
		clear(v)
	}
	return v
}

func (e *oddEmbedder) EmbedDocuments(_ context.Context, ts []string) ([][]float32, error) {
	out := make([][]float32, len(ts))
	for i, s := range ts {
		out[i] = e.vec(s)
	}
	return out, nil
}

func (e *oddEmbedder) EmbedQuery(_ context.Context, s string) ([]float32, error) {
	return e.vec(s), nil
}

func TestOddEmbeddingsGathered(t *testing.T) {
	e := &oddEmbedder{dim: 16}
	b := newBuffer(t, option.WithEmbedder(e), option.WithTokenBudget(128))
	b.nearAbove = 40
	ctx := context.Background()
	for i := range 400 {
		in := fmt.Sprintf("Turn %d about the garden and tomato %d.", i, i%7)
		switch i % 10 {
		case 3:
			in += " ZERO"
		case 5:
			in += " NAN"
		case 7:
			in += " INF"
		}
		if err := b.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": fmt.Sprintf("Reply %d.", i)}); err != nil && i < 10 {
			t.Logf("save %d: %v", i, err)
		}
	}
	for _, q := range []string{"tomato 3", "ZERO", "NAN", "INF", "   ", ""} {
		if _, err := b.LoadMemoryVariables(ctx, map[string]any{"input": q}); err != nil {
			t.Logf("load %q: %v", q, err)
		}
	}
	t.Logf("near %v", b.near != nil)
	e.mu.Lock()
	e.dim = 24
	e.mu.Unlock()
	for i := range 5 {
		if err := b.SaveContext(ctx, map[string]any{"input": fmt.Sprintf("Wider %d tomato.", i)}, map[string]any{"output": "Ok."}); err != nil {
			t.Logf("save wider %d: %v", i, err)
		}
	}
	if _, err := b.LoadMemoryVariables(ctx, map[string]any{"input": "tomato 3"}); err != nil {
		t.Logf("load after the dimension changed: %v", err)
	}
	if _, err := b.LoadMemoryVariables(ctx, map[string]any{"input": "Wider 3"}); err != nil {
		t.Logf("load after the dimension changed: %v", err)
	}
}
