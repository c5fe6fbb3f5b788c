package relevance

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/text"
)

// docs is a Corpus over plain texts, without embeddings.
type docs []string

func (d docs) Len() int             { return len(d) }
func (d docs) Vector(int) Vector    { return Vector{} }
func (d docs) Names(i int) []string { return Names(d[i]) }
func index(d docs) *Index {
	ix := NewIndex()
	for i, s := range d {
		terms := text.Terms(s)
		ix.Add(i, terms, text.Flags(s), NoveltyOf(terms, ix.Seen))
	}
	return ix
}

func argmax(xs []float64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}

func TestNameGatePrefersTheNamedPerson(t *testing.T) {
	d := docs{
		"Dana: I started working as a nurse last spring.",
		"Lee: I started working as a nurse too.",
		"Lee: the weather is grim.",
	}
	rel := Score(NewQuery("What does Dana do for work?", nil), index(d), d)
	if argmax(rel) != 0 || rel[0] <= rel[1] {
		t.Fatalf("rel = %v: Dana's turn should win", rel)
	}
}

func TestExpansionFindsTheSecondHop(t *testing.T) {
	d := docs{
		"Dana: my sister Priya is visiting this week.",
		"Dana: Priya just became a nurse, so proud.",
		"Lee: my sister loves the beach.",
		"Lee: became a fan of jazz lately.",
	}
	for range 30 { // background, so that names are rare
		d = append(d, "Lee: nothing much, work and sleep.")
	}
	rel := Score(NewQuery("What job did Dana's sister get?", nil), index(d), d)
	if rel[1] <= rel[3] || rel[1] <= rel[2] {
		t.Fatalf("rel = %v: the second hop (doc 1) should beat docs 2 and 3", rel[:4])
	}
}

func TestConceptsMatchHypernyms(t *testing.T) {
	d := docs{"We brought home a beagle puppy last week.", "The tax office called again."}
	rel := Score(NewQuery("Tell me about the dog", nil), index(d), d)
	if rel[0] == 0 || rel[1] != 0 {
		t.Fatalf("rel = %v: the puppy should match dog, the tax office not", rel)
	}
}

func TestExpectedAnswer(t *testing.T) {
	tests := []struct {
		q    string
		want answerType
	}{
		{"When did Dana run the marathon?", answerType{flags: engram.FlagDate}},
		{"How old is Lee?", answerType{flags: engram.FlagNumber}},
		{"What is the weather like?", answerType{}},
	}
	for _, tt := range tests {
		if got := expectedAnswer(tt.q); got.flags&tt.want.flags != tt.want.flags || (tt.want.zero() && !got.zero()) {
			t.Errorf("expectedAnswer(%q) = %+v, want %+v", tt.q, got, tt.want)
		}
	}
	if a := expectedAnswer("Which city does Dana live in?"); a.kinds == 0 {
		t.Error("a city question should expect a location")
	}
}

func TestNames(t *testing.T) {
	got := Names("Random, but Freya moved to Asheville. Honestly I love it.")
	if !slices.Contains(got, "freya") || !slices.Contains(got, text.Stem("asheville")) || slices.Contains(got, "random") {
		t.Fatalf("Names = %q", got)
	}
	if q := queryNames("Dana's sister lives where?"); !slices.Contains(q, "dana") {
		t.Fatalf("queryNames = %q", q)
	}
}

func TestVectorDotMatchesDense(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, density := range []float64{0.05, 0.4, 0.9} {
		a, b := make([]float32, 300), make([]float32, 300)
		for i := range a {
			if r.Float64() < density {
				a[i] = float32(r.NormFloat64())
			}
			b[i] = float32(r.NormFloat64())
		}
		if got, want := Compress(a).Dot(b), Dot(a, b); math.Abs(got-want) > 1e-4 {
			t.Fatalf("density %v: sparse %v, dense %v", density, got, want)
		}
	}
	if Compress(make([]float32, 4)).Dot(make([]float32, 5)) != 0 {
		t.Fatal("mismatched dimensions should score 0")
	}
}

func TestTopK(t *testing.T) {
	xs := []float64{0.1, 0.9, 0.3, 0.9, 0.5, 0}
	if got := topK(xs, 3); !slices.Equal(got, []int{1, 3, 4}) {
		t.Fatalf("topK = %v", got)
	}
	if got := topK(xs[:1], 3); !slices.Equal(got, []int{0}) {
		t.Fatalf("topK short = %v", got)
	}
}

func TestSmooth(t *testing.T) {
	rel := []float64{0, 1, 0}
	Smooth(rel, func(i int) int {
		if i+1 < 3 {
			return i + 1
		}
		return -1
	})
	if rel[0] != contextShare || rel[1] != 1 || rel[2] != 0 {
		t.Fatalf("Smooth = %v", rel)
	}
}

// vdocs is a Corpus of texts with random embeddings.
type vdocs struct {
	docs
	vecs [][]float32
}

func (d vdocs) Vector(i int) Vector { return Compress(d.vecs[i]) }

// Where every document shares a word with the query (so that Score compares
// the embedding with each), ScoreSubset over every document is Score, and
// over the nearest few it keeps Score's best documents: only the others lose
// their cosine.
func TestScoreSubsetMatchesScore(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	words := []string{"Dana", "Lee", "nurse", "marathon", "beagle", "Boston", "sister", "jazz", "tax", "garden"}
	var d vdocs
	for i := range 200 {
		s := fmt.Sprintf("%s runs and talked about the %s and the %s on day %d.", words[r.IntN(2)], words[2+r.IntN(8)], words[2+r.IntN(8)], i)
		d.docs = append(d.docs, s)
		v := make([]float32, 16)
		for k := range v {
			v[k] = float32(r.NormFloat64())
		}
		d.vecs = append(d.vecs, v)
	}
	ix := index(d.docs)
	qv := make([]float32, 16)
	for k := range qv {
		qv[k] = float32(r.NormFloat64())
	}
	q := NewQuery("When did Dana run the marathon?", qv)
	want := Score(q, ix, d)
	all := make([]int, len(d.docs))
	for i := range all {
		all[i] = i
	}
	// BM25 sums a query's terms in map order: equal up to rounding.
	for i, g := range ScoreSubset(q, ix, d, all) {
		if math.Abs(g-want[i]) > 1e-12 {
			t.Fatalf("doc %d: ScoreSubset over every document %v, Score %v", i, g, want[i])
		}
	}
	cos := make([]float64, len(d.docs))
	for i := range cos {
		cos[i] = max(0, d.Vector(i).Dot(qv))
	}
	got := ScoreSubset(q, ix, d, Top(cos, 40))
	if g, w := Top(got, 5), Top(want, 5); !slices.Equal(g, w) {
		t.Fatalf("best five: subset %v, full %v", g, w)
	}
}

func TestNoveltyCountsFirstMentions(t *testing.T) {
	d := docs{
		"Wren: the cat has been so lazy in this heat.",
		"Wren: the cat has been so lazy in this heat.",
		"Wren: the cat is lazy, meet Luna.",
	}
	ix := index(d)
	for i, want := range []float64{1, 0, 0.5} { // "meet" and "luna" are new
		if got := ix.Novelty(i); math.Abs(got-want) > 1e-9 {
			t.Errorf("Novelty(%d) = %v, want %v", i, got, want)
		}
	}
	ix.Add(3, text.Terms("Wren: hello"), 0, 2)
	if got := ix.Novelty(3); got != 1 {
		t.Errorf("Add with novelty 2 gives %v, want it clamped to 1", got)
	}
	if ix.Novelty(-1) != 0 || ix.Novelty(4) != 0 {
		t.Error("Novelty out of range should be 0")
	}
}

// A repeat matches the question as well as the first saying of a fact, and
// a shorter turn better under BM25: only novelty puts the fact first.
func TestNoveltyPrefersTheFactToTheRepeat(t *testing.T) {
	d := docs{"Lee: nothing much, work and sleep."}
	for range 3 {
		d = append(d, "Wren: the cat has been so lazy in this heat.")
	}
	d = append(d, "Wren: the cat is lazy, meet Luna, our Maine Coon, from the shelter.")
	for range 3 {
		d = append(d, "Wren: the cat has been so lazy in this heat.")
	}
	rel := Score(NewQuery("Tell me about Wren's lazy cat", nil), index(d), d)
	if argmax(rel[2:]) != 2 {
		t.Fatalf("rel = %v: the turn that introduces Luna (4) should beat the repeats", rel)
	}
}

// Names and answer kinds of a long text come once each (they are kept as
// sets; a scan of the list per word made 100k names take seconds).
func TestLongTextsOnceEach(t *testing.T) {
	var sb strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&sb, " Zq%d went, Zq%d", i, i)
	}
	ns := Names(sb.String())
	if len(ns) != 20000 || len(slices.Compact(slices.Sorted(slices.Values(ns)))) != len(ns) {
		t.Fatalf("%d names, want 20000 distinct", len(ns))
	}
	ks := kindTerms(text.Terms(strings.Repeat("dog cat nurse teacher ", 5000)))
	if len(ks) != 4 {
		t.Fatalf("kind terms %v, want four", ks)
	}
}
