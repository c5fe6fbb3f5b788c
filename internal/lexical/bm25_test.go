package lexical

import "testing"

func TestScoreRanksMatches(t *testing.T) {
	ix := New()
	docs := [][]string{
		{"dog", "name", "biscuit"},
		{"cat", "name", "tom"},
		{"weather", "rain"},
		{"dog", "dog", "walk", "park", "morning", "sun"},
	}
	for i, d := range docs {
		ix.Add(i, d)
	}
	out := make([]float64, len(docs))
	ix.Score(map[string]float64{"dog": 1, "name": 1}, out)
	if !(out[0] > out[1] && out[0] > out[3] && out[2] == 0) {
		t.Fatalf("scores %v: doc 0 should rank first and doc 2 score zero", out)
	}
	// A rarer term weighs more than a common one.
	if ix.IDF("biscuit") <= ix.IDF("dog") {
		t.Fatalf("idf(biscuit)=%v <= idf(dog)=%v", ix.IDF("biscuit"), ix.IDF("dog"))
	}
	// Weights scale contributions.
	half := make([]float64, len(docs))
	ix.Score(map[string]float64{"dog": 0.5, "name": 0.5}, half)
	if d := half[0]*2 - out[0]; d > 1e-12 || d < -1e-12 {
		t.Fatalf("half weights gave %v, want %v", half[0], out[0]/2)
	}
}

// MoveToEnd keeps every term's postings in document order, so that
// ScoreDocs can search them; a document added out of order stops that.
func TestMoveToEndKeepsPostingsInOrder(t *testing.T) {
	ix := New()
	for d := range 50 {
		terms := []string{"all"}
		if d%3 == 0 {
			terms = append(terms, "third")
		}
		ix.Add(d, terms)
	}
	for _, mv := range [][2]int{{0, 5}, {10, 20}, {45, 5}, {3, 1}} {
		ix.MoveToEnd(mv[0], mv[1])
		for term, ps := range ix.postings {
			for i := 1; i < len(ps); i++ {
				if ps[i-1].doc() >= ps[i].doc() {
					t.Fatalf("after MoveToEnd(%d, %d), %q's postings out of order at %d: %v", mv[0], mv[1], term, i, ps)
				}
			}
		}
	}
	if ix.unordered {
		t.Fatal("moves marked the index unordered")
	}
	ix = New()
	ix.Add(5, []string{"all"})
	ix.Add(2, []string{"all"}) // below the last document: out of order
	if !ix.unordered {
		t.Fatal("a document added below the last left the index ordered")
	}
}

// A posting holds its document and frequency exactly up to MaxTF, which a
// term said more often in one document counts as.
func TestPostingBounds(t *testing.T) {
	for _, tt := range []struct {
		doc  int32
		tf   float32
		want float32
	}{{0, 1, 1}, {7, 2, 2}, {MaxDocs - 1, MaxTF, MaxTF}, {3, MaxTF + 40, MaxTF}} {
		p := newPosting(tt.doc, tt.tf)
		if p.doc() != tt.doc || p.tf() != tt.want {
			t.Errorf("newPosting(%d, %v) holds (%d, %v), want (%d, %v)", tt.doc, tt.tf, p.doc(), p.tf(), tt.doc, tt.want)
		}
		if q := p.to(tt.doc + 1); q.doc() != tt.doc+1 && tt.doc+1 < MaxDocs || q.tf() != p.tf() {
			t.Errorf("moving (%d, %v) to %d gave (%d, %v)", tt.doc, tt.tf, tt.doc+1, q.doc(), q.tf())
		}
	}
}
