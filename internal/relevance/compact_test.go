package relevance

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/engram-go/engram/internal/text"
)

// An index compacted after some documents are dropped scores every query
// as an index built from the kept documents alone, in order, to the bit.
func TestCompactMatchesRebuild(t *testing.T) {
	lines := []string{
		"Caroline: I went to a support group yesterday.",
		"Melanie: What did you do there?",
		"Caroline: We talked about adoption and painting.",
		"Melanie: I love painting with my kids!",
		"Caroline: Are the kids doing well?",
		"Melanie: They loved the camping trip in July.",
		"Caroline: My friends are my rocks.",
		"Melanie: Pottery class starts on Monday.",
	}
	queries := []string{"What did Melanie paint?", "When did Melanie go camping?", "Who supports Caroline?", "pottery Monday"}
	r := rand.New(rand.NewPCG(11, 11))
	for trial := range 50 {
		n := 4 + r.IntN(40)
		docs := make([]string, n)
		for i := range docs {
			docs[i] = lines[r.IntN(len(lines))]
		}
		ix := NewIndex()
		for i, d := range docs {
			ix.Add(i, d, i-1, text.Terms(d))
		}
		keep := make([]bool, n)
		var kept []string
		for i := range keep {
			if keep[i] = r.IntN(3) > 0; keep[i] {
				kept = append(kept, docs[i])
			}
		}
		ix.Compact(keep)
		fresh := NewIndex()
		for i, d := range kept {
			fresh.Add(i, d, i-1, text.Terms(d))
		}
		for _, q := range queries {
			query := NewQuery(q, nil)
			got, want := make([]float64, len(kept)), make([]float64, len(kept))
			ix.score(query.Terms, got)
			fresh.score(query.Terms, want)
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("trial %d, %q, document %d: compacted %v, rebuilt %v", trial, q, i, got[i], want[i])
				}
			}
		}
		for i := range kept {
			if ix.speaker[i] >= 0 != (fresh.speaker[i] >= 0) || ix.speaker[i] >= 0 && ix.speakers[ix.speaker[i]] != fresh.speakers[fresh.speaker[i]] ||
				ix.asks[i] != fresh.asks[i] || ix.asked[i] != fresh.asked[i] {
				t.Fatalf("trial %d, document %d: speaker, asks or asked differ from a rebuilt index", trial, i)
			}
		}
		if ix.Len() != fresh.Len() || ix.words.Cap() != fresh.words.Cap() {
			t.Fatalf("trial %d: %d documents (cap %d), rebuilt %d (cap %d)", trial, ix.Len(), ix.words.Cap(), fresh.Len(), fresh.words.Cap())
		}
	}
}

// CompactRows keeps the marked rows, in order.
func TestCompactRows(t *testing.T) {
	mat := []float32{0, 0, 1, 1, 2, 2, 3, 3}
	got := CompactRows(mat, 2, []bool{false, true, false, true})
	if want := []float32{1, 1, 3, 3}; !slices.Equal(got, want) {
		t.Fatalf("CompactRows = %v, want %v", got, want)
	}
}
