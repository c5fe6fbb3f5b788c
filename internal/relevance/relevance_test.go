package relevance

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/engram-go/engram/internal/text"
)

// docs is a Corpus over plain texts, without embeddings.
type docs []string

func (d docs) Len() int          { return len(d) }
func (d docs) Vector(int) Vector { return Vector{} }
func (d docs) Near(i, k int) int {
	if j := i + k; j >= 0 && j < len(d) {
		return j
	}
	return -1
}
func index(d docs) *Index {
	ix := NewIndex()
	for i, s := range d {
		terms := text.Terms(s)
		ix.Add(i, s, i-1, terms)
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

func TestNames(t *testing.T) {
	got := Names("Random, but Freya moved to Asheville. Honestly I love it.")
	if !slices.Contains(got, "freya") || !slices.Contains(got, text.Stem("asheville")) || slices.Contains(got, "random") {
		t.Fatalf("Names = %q", got)
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

// The names of a long text come once each (they are kept as a set; a scan
// of the list per word made 100k names take seconds).
func TestLongTextsOnceEach(t *testing.T) {
	var sb strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&sb, " Zq%d went, Zq%d", i, i)
	}
	ns := Names(sb.String())
	if len(ns) != 20000 || len(slices.Compact(slices.Sorted(slices.Values(ns)))) != len(ns) {
		t.Fatalf("%d names, want 20000 distinct", len(ns))
	}
}

// A turn that shares no word with the question is found through its
// neighbour: the question's words are in the turn before it.
func TestContextFindsTheReply(t *testing.T) {
	d := docs{
		"Lee: nothing much, work and sleep.",
		"Dana: did you make it to the jazz concert on Friday?",
		"Lee: yes! best night of the whole year.",
		"Dana: nothing much, work and sleep.",
		"Lee: the weather has been grim.",
	}
	q := NewQuery("How was Lee's jazz concert?", nil)
	rel := Score(q, index(d), d)
	if !(rel[2] > rel[0] && rel[2] > rel[3] && rel[2] > rel[4]) {
		t.Fatalf("rel = %v: the reply (2) should beat the unrelated turns", rel)
	}
	q.Off = Context
	if rel := Score(q, index(d), d); rel[2] >= rel[1] {
		t.Fatalf("without context rel = %v: the reply should fall behind the question", rel)
	}
}

// Of two turns that match alike, the one by the speaker the question names
// comes first.
func TestSpeakerCue(t *testing.T) {
	d := docs{"Lee: Dana and I painted a sunrise over the lake.", "Dana: Lee and I painted a sunrise over the lake."}
	rel := Score(NewQuery("What did Dana paint?", nil), index(d), d)
	if rel[1] <= rel[0] {
		t.Fatalf("rel = %v: Dana's turn should win", rel)
	}
	q := NewQuery("What did Dana paint?", nil)
	q.Off = Speaker
	if rel := Score(q, index(d), d); rel[1] != rel[0] {
		t.Fatalf("speaker cue off: rel = %v, want a tie", rel)
	}
}

// A turn that answers a question asked just before it is worth a little
// more than the same words said unprompted.
func TestAskedCue(t *testing.T) {
	d := docs{"Lee: the garden is lovely.", "Dana: my sister is a nurse.", "Lee: what does she do?", "Dana: my sister is a nurse."}
	ix := index(d)
	q := NewQuery("sister nurse", nil)
	q.Off = Context // neighbours apart, so only the cue differs
	rel := Score(q, ix, d)
	if rel[3] <= rel[1] {
		t.Fatalf("rel = %v: the answer (3) should beat the unprompted turn (1)", rel)
	}
}

func TestSpeakerOf(t *testing.T) {
	for s, want := range map[string]string{
		"Caroline: I went to a support group.": "carolin",
		"Mary Ann Lee: hi":                     "mari",
		"note: buy milk":                       "",
		"no colon here":                        "",
		"":                                     "",
		"A very long preamble that goes on: x": "",
	} {
		if got := SpeakerOf(s); got != want {
			t.Errorf("SpeakerOf(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestComponents(t *testing.T) {
	for _, c := range Components() {
		got, err := ParseComponent(c.String())
		if err != nil || got != c {
			t.Errorf("ParseComponent(%q) = %v, %v", c, got, err)
		}
	}
	if _, err := ParseComponent("novelty"); err == nil || !strings.Contains(err.Error(), ComponentNames()) {
		t.Errorf("a removed component: %v, want an error that lists the names", err)
	}
	if n := ComponentNames(); n != "cosine,context,speaker,asked,recency,flags" {
		t.Errorf("ComponentNames() = %q", n)
	}
	ctx := WithOff(context.Background(), Cosine|Speaker)
	q := Query{Off: Off(ctx)}
	if q.On(Cosine) || q.On(Speaker) || !q.On(Context) {
		t.Error("WithOff did not take")
	}
	if Off(context.Background()) != 0 {
		t.Error("a plain context switches something off")
	}
}

// topK agrees with a full sort on random values, ties included, at
// lengths where TopSet selects over all and where it narrows by a sample.
func TestTopKMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for trial := range 400 {
		n := r.IntN(60)
		if trial%2 == 1 {
			n = sampledAbove + r.IntN(2000)
		}
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(r.IntN(8)) // many ties
			if trial%4 == 3 {
				xs[i] = r.Float64() // few
			}
		}
		k := r.IntN(70)
		idx := make([]int, len(xs))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			switch {
			case xs[a] > xs[b]:
				return -1
			case xs[a] < xs[b]:
				return 1
			}
			return a - b
		})
		want := idx[:min(k, len(idx))]
		if got := topK(xs, k); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("trial %d: topK(%v, %d) = %v, want %v", trial, xs, k, got, want)
		}
		set := slices.Sorted(slices.Values(want))
		if got := TopSet(xs, k, nil); !slices.Equal(got, set) && !(len(got) == 0 && len(set) == 0) {
			t.Fatalf("trial %d: TopSet(%v, %d) = %v, want %v", trial, xs, k, got, set)
		}
	}
}

// TopSet counts NaN as the smallest value, and reuses its scratch.
func TestTopSetNaN(t *testing.T) {
	nan := math.NaN()
	xs := []float64{nan, 2, nan, 1, math.Inf(-1)}
	var scratch TopScratch
	got := TopSet(xs, 3, &scratch)
	if !slices.Equal(got, []int{0, 1, 3}) {
		t.Fatalf("TopSet(%v, 3) = %v, want [0 1 3]: two values, then the first of the smallest", xs, got)
	}
	if n := testing.AllocsPerRun(10, func() { TopSet(xs, 3, &scratch) }); n != 0 {
		t.Fatalf("TopSet with its scratch allocated %v times, want 0", n)
	}
	if got := TopSet(xs, 2, nil); !slices.Equal(got, []int{1, 3}) {
		t.Fatalf("TopSet(%v, 2) = %v, want [1 3]", xs, got)
	}
	// Long enough to be narrowed by a sample: five values among NaNs.
	long := make([]float64, 1000)
	for i := range long {
		long[i] = nan
	}
	for _, i := range []int{3, 250, 500, 640, 999} {
		long[i] = float64(i)
	}
	if got := TopSet(long, 8, nil); !slices.Equal(got, []int{0, 1, 2, 3, 250, 500, 640, 999}) {
		t.Fatalf("TopSet(five values among NaNs, 8) = %v, want the five and the first three NaNs", got)
	}
	if got := TopSet(long, 4, nil); !slices.Equal(got, []int{250, 500, 640, 999}) {
		t.Fatalf("TopSet(five values among NaNs, 4) = %v, want [250 500 640 999]", got)
	}
}

// TestCompressZeroStaysDense: a vector of zeros (a text of no known word)
// is kept dense, so that it does not turn a memory's matrix off.
func TestCompressZeroStaysDense(t *testing.T) {
	z := make([]float32, 8)
	if v := Compress(z); v.DenseOrNil() == nil || v.Len() != 8 || v.Dot([]float32{1, 1, 1, 1, 1, 1, 1, 1}) != 0 {
		t.Errorf("zero vector compressed to %+v, want it dense", v)
	}
	s := make([]float32, 8)
	s[3] = 1
	if v := Compress(s); v.DenseOrNil() != nil || v.Dot([]float32{0, 0, 0, 2, 0, 0, 0, 0}) != 2 {
		t.Errorf("one non-zero of eight: %+v, want it sparse", v)
	}
}

// TestMoveToEnd: renumbering documents as if some were added again at the
// end gives the index that adding them in that order builds.
func TestMoveToEnd(t *testing.T) {
	docs := []string{
		"Caroline: Did you go to the support group?", "Melanie: Yes, on Tuesday, it was great.",
		"Caroline: I adopted a dog named Biscuit.", "Melanie: What breed is Biscuit?",
		"Caroline: A beagle, eight weeks old.", "Melanie: Lovely. My team meets on Mondays.",
		"Caroline: Are you painting again?", "Melanie: Sunsets, mostly.",
	}
	for _, tt := range []struct{ from, n int }{{0, 1}, {2, 2}, {5, 3}, {7, 1}, {3, 1}} {
		moved := NewIndex()
		for i, d := range docs {
			moved.Add(i, d, i-1, text.Terms(d))
		}
		moved.MoveToEnd(tt.from, tt.n)
		order := append(append(append([]string(nil), docs[:tt.from]...), docs[tt.from+tt.n:]...), docs[tt.from:tt.from+tt.n]...)
		built := NewIndex()
		for i, d := range order {
			built.Add(i, d, i-1, text.Terms(d))
		}
		names := func(ix *Index) []string { // speakers are numbered as first seen
			var out []string
			for _, id := range ix.speaker {
				name := ""
				if id >= 0 {
					name = ix.speakers[id]
				}
				out = append(out, name)
			}
			return out
		}
		if !reflect.DeepEqual(names(moved), names(built)) || !reflect.DeepEqual(moved.asks, built.asks) || !reflect.DeepEqual(moved.asked, built.asked) {
			t.Errorf("move %d from %d: speakers %v asks %v asked %v, built %v %v %v", tt.n, tt.from, names(moved), moved.asks, moved.asked, names(built), built.asks, built.asked)
		}
		for _, q := range []string{"What breed is the dog?", "When does the team meet?", "support group Tuesday", "painting sunsets"} {
			terms := map[string]float64{}
			for _, w := range text.Terms(q) {
				terms[w] = 1
			}
			a, b := make([]float64, len(docs)), make([]float64, len(docs))
			moved.score(terms, a)
			built.score(terms, b)
			for i := range a {
				if math.Abs(a[i]-b[i]) > 1e-12 {
					t.Errorf("move %d from %d, %q: doc %d scores %v, built %v", tt.n, tt.from, q, i, a[i], b[i])
				}
			}
			for _, w := range text.Terms(q) {
				if moved.DocFreq(w) != built.DocFreq(w) {
					t.Errorf("document frequency of %q: %d, built %d", w, moved.DocFreq(w), built.DocFreq(w))
				}
			}
		}
	}
}
