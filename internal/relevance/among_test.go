package relevance

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomCorpus is n transcript turns, by two speakers, some asking, with
// random vectors.
func randomCorpus(r *rand.Rand, n int) vdocs {
	words := []string{"nurse", "marathon", "beagle", "Boston", "sister", "jazz", "tax", "garden", "pottery", "camping"}
	var d vdocs
	for i := range n {
		s := fmt.Sprintf("%s: I talked about the %s and the %s on day %d.", []string{"Dana", "Lee"}[r.IntN(2)], words[r.IntN(10)], words[r.IntN(10)], i)
		if r.IntN(4) == 0 {
			s += " Did you?"
		}
		d.docs = append(d.docs, s)
		v := make([]float32, 16)
		for k := range v {
			v[k] = float32(r.NormFloat64())
		}
		d.vecs = append(d.vecs, v)
	}
	return d
}

// Over every document, ScoreAmong is Score: the same maxima, neighbours
// and cues, up to the rounding of BM25's sum over the query's terms.
func TestScoreAmongEveryDocumentIsScore(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, off := range []Component{0, Cosine, Context, Speaker | Asked} {
		d := randomCorpus(r, 300)
		ix := index(d.docs)
		qv := make([]float32, 16)
		for k := range qv {
			qv[k] = float32(r.NormFloat64())
		}
		q := NewQuery("When did Dana run the marathon with her sister?", qv)
		q.Off = off
		want := Score(q, ix, d)
		all := make([]int, len(d.docs))
		for i := range all {
			all[i] = len(all) - 1 - i // any order
		}
		out := make([]float64, len(d.docs))
		got := ScoreAmong(q, ix, d, all, out)
		if len(got) != len(d.docs) || !slices.IsSorted(got) {
			t.Fatalf("off %b: scored %d documents, want all %d in order", off, len(got), len(d.docs))
		}
		for i := range want {
			if math.Abs(out[i]-want[i]) > 1e-9 {
				t.Fatalf("off %b: doc %d: ScoreAmong %v, Score %v", off, i, out[i], want[i])
			}
		}
	}
}

// Over a few seeds, ScoreAmong scores them and the turns within two of
// them, nothing else, and finds Score's best document where the seeds
// hold it.
func TestScoreAmongFewSeeds(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	d := randomCorpus(r, 2000)
	ix := index(d.docs)
	qv := make([]float32, 16)
	for k := range qv {
		qv[k] = float32(r.NormFloat64())
	}
	q := NewQuery("What about the beagle and the pottery?", qv)
	want := Score(q, ix, d)
	cos := make([]float64, len(d.docs))
	for i := range cos {
		cos[i] = d.Vector(i).Dot(qv)
	}
	seeds := append(Top(cos, 30), ix.Best(q, 30, 1<<30)...)
	out := make([]float64, len(d.docs))
	for i := range out {
		out[i] = -1 // written only where scored
	}
	got := ScoreAmong(q, ix, d, seeds, out)
	near := map[int]bool{}
	for _, s := range seeds {
		for k := -2; k <= 2; k++ {
			if j := s + k; j >= 0 && j < len(d.docs) {
				near[j] = true
			}
		}
	}
	if len(got) != len(near) {
		t.Fatalf("scored %d documents, want the %d seeds and neighbours", len(got), len(near))
	}
	for i, x := range out {
		if near[i] != (x >= 0) {
			t.Fatalf("doc %d: written %v, within two of a seed %v", i, x >= 0, near[i])
		}
	}
	// The best by Score is a seed here: found first, at the same value,
	// since the seeds hold the best by each measure and so the maxima.
	top, first := Top(want, 1)[0], Top(out, 1)[0]
	if top != first || math.Abs(out[top]-want[top]) > 1e-9 {
		t.Fatalf("best among the seeds %d (%v), over everything %d (%v)", first, out[first], top, want[top])
	}
}

// ScoreDocs gives each document the BM25 that Score adds, whether the
// postings are searched (in document order) or read whole (after a move).
func TestScoreDocsMatchesScore(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	d := randomCorpus(r, 1500)
	ix := index(d.docs)
	q := NewQuery("Dana marathon sister jazz day 7", nil)
	check := func(name string) {
		full := make([]float64, len(d.docs))
		ix.words.Score(q.Terms, full)
		for _, size := range []int{1, 5, 40, 700, 1500} {
			docs := r.Perm(len(d.docs))[:size]
			slices.Sort(docs)
			got := make([]float64, size)
			ix.words.ScoreDocs(q.Terms, docs, got)
			for i, doc := range docs {
				if math.Abs(got[i]-full[doc]) > 1e-9 {
					t.Fatalf("%s, %d documents: doc %d: ScoreDocs %v, Score %v", name, size, doc, got[i], full[doc])
				}
			}
		}
	}
	check("in order")
	ix.MoveToEnd(100, 50)
	check("moved")
}

// Best finds the k best by BM25 when its budget covers every posting, and
// with a small budget the best by the rarest words.
func TestBestFindsTheBest(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	d := randomCorpus(r, 3000)
	ix := index(d.docs)
	q := NewQuery("Did Dana mention the tax on day 1234?", nil)
	full := make([]float64, len(d.docs))
	ix.words.Score(q.Terms, full)
	if got, want := ix.Best(q, 20, 1<<30), Top(full, 20); !slices.Equal(got, want) {
		t.Fatalf("Best with every posting %v, want %v", got, want)
	}
	// "1234" is in one document: the rarest word, read first.
	got := ix.Best(q, 1, 1)
	if len(got) != 1 || !slices.Contains(ix.words2docs("1234"), got[0]) {
		t.Fatalf("Best within one posting = %v, want the document of day 1234", got)
	}
	if got := ix.Best(q, 0, 100); got != nil {
		t.Fatalf("Best of 0 = %v", got)
	}
}

func (ix *Index) words2docs(term string) []int {
	var out []int
	ix.words.EachDoc(term, func(d int) { out = append(out, d) })
	return out
}
