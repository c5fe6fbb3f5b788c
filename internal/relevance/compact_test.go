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

// Rows hands out each document's row where it keeps it: Compact moves
// the kept rows down in order, across blocks, and frees the blocks left
// empty; Clear zeroes a row; the blocks relevance reads hold what Row
// gives. Rows that relevance compares whole are kept as given, nothing
// rounded.
func TestRowsKeepTheirRowsInBlocks(t *testing.T) {
	var r Rows
	n := 2*blockRows + 10
	held := make([][]float32, n)
	for d := range n {
		held[d] = r.Append([]float32{float32(d), 1, float32(-d)})
		if held[d] == nil || held[d][0] != float32(d) {
			t.Fatalf("Append %d gave %v", d, held[d])
		}
	}
	held[5][1] = 7 // the row itself: the corpus sees the change
	if r.Row(5)[1] != 7 {
		t.Fatal("Append returned a copy, not the row the corpus keeps")
	}
	keep := make([]bool, n)
	var want []float32
	for d := range keep {
		if keep[d] = d%2 == 1 || d > blockRows+20; keep[d] {
			want = append(want, float32(d))
		} else {
			r.Clear(d)
			if held[d][0] != 0 {
				t.Fatalf("Clear(%d) left %v", d, held[d])
			}
		}
	}
	r.Compact(keep)
	if r.Len() != len(want) {
		t.Fatalf("%d rows after Compact, want %d", r.Len(), len(want))
	}
	b := r.Blocks()
	if b.Dim != 3 || b.Stride != 3 || b.N != len(want) || len(b.Rows) != (len(want)+blockRows-1)/blockRows {
		t.Fatalf("blocks %d×%d of %d rows in %d blocks", b.Stride, b.Dim, b.N, len(b.Rows))
	}
	for d, x := range want {
		if row := r.Row(d); row[0] != x || row[2] != -x || !slices.Equal(b.row(d), row) || !slices.Equal(r.Full(d), row) {
			t.Fatalf("row %d is %v (blocks %v), want document %v", d, row, b.row(d), x)
		}
	}
	if r.Append([]float32{1, 2}) != nil || r.Len() != 0 || r.Blocks().Rows != nil {
		t.Fatal("a row of another length did not turn the rows off")
	}
}
