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
