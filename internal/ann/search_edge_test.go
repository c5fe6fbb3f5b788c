package ann

import (
	"math"
	"testing"
)

// A candidate the caller has no vector for keeps its int8 score, below the
// training size (every vector scored) as above it.
func TestNoVectorKeepsInt8Score(t *testing.T) {
	ix := New(2)
	vs := map[int32][]float32{1: {1, 0}, 2: {0.6, 0.8}, 3: {0, 1}}
	for id, v := range vs {
		if err := ix.Add(id, v); err != nil {
			t.Fatal(err)
		}
	}
	got := ix.Search([]float32{1, 0}, 3, func(id int32) []float32 {
		if id == 1 {
			return nil // e.g. the caller's row left, or a row of another width
		}
		return vs[id]
	}, nil)
	if len(got) != 3 {
		t.Errorf("Search returned %v: id 1, which has no vector, is gone rather than kept at its int8 score", got)
	} else if got[0] != 1 {
		t.Errorf("Search returned %v: id 1, the query's own direction by its int8 code, should come first", got)
	}
}

// A huge k, a zero query and a query of tiny components.
func TestSearchEdges(t *testing.T) {
	ix := New(4)
	for i := range 5000 { // trained
		v := []float32{float32(math.Sin(float64(i))), float32(math.Cos(float64(i))), float32(i%3) - 1, 0.5}
		if err := ix.Add(int32(i), normalize(v)); err != nil {
			t.Fatal(err)
		}
	}
	if got := ix.Search([]float32{1, 0, 0, 0}, math.MaxInt, nil, nil); len(got) == 0 {
		t.Error("huge k: no ids")
	}
	_ = ix.Search([]float32{0, 0, 0, 0}, 10, nil, nil)
	_ = ix.Search([]float32{1e-45, 0, 0, 0}, 10, nil, nil)
	if err := ix.Add(9999, []float32{1e-45, 0, 0, 0}); err != nil {
		t.Log(err)
	}
}
