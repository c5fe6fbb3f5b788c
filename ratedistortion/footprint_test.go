package ratedistortion

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"unsafe"

	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/option"
)

// TestOneCopyOfEachVector: after a load, every unit's embedding is its row
// of the scoring matrix, not a second copy, and stays right when the cap
// drops units and a repeat moves one (both build a new matrix).
func TestOneCopyOfEachVector(t *testing.T) {
	e, err := embed.New()
	if err != nil {
		t.Fatal(err)
	}
	b := newBuffer(t, option.WithMaxUnits(40), option.WithEmbedder(e))
	check := func(when string) {
		t.Helper()
		b.mu.Lock()
		defer b.mu.Unlock()
		if b.matDim <= 0 || len(b.mat) != len(b.pool)*b.matDim {
			t.Fatalf("%s: matrix of %d floats, dimension %d, for %d units", when, len(b.mat), b.matDim, len(b.pool))
		}
		for i, x := range b.pool {
			row := b.mat[i*b.matDim : (i+1)*b.matDim]
			if unsafe.SliceData(x.unit.Embedding) != unsafe.SliceData(row) || !slices.Equal(x.vec.DenseOrNil(), row) {
				t.Fatalf("%s: unit %s is not its row %d of the matrix", when, x.unit.ID, i)
			}
			want := embed.Normalized(e.Embed(x.unit.Text))
			if !slices.Equal(x.unit.Embedding, want) {
				t.Fatalf("%s: unit %s holds another vector than its text's", when, x.unit.ID)
			}
		}
	}
	for i := range 30 {
		save(t, b, fmt.Sprintf("Note %d: the blue folder holds invoice %d.", i, 1000+i), "Noted.")
	}
	load(t, b, "blue folder invoice")
	check("after the first load")
	for i := range 30 {
		save(t, b, fmt.Sprintf("Later %d: the train to Porto leaves at %d:15.", i, i%24), "OK.")
	}
	load(t, b, "train to Porto")
	check("after the cap dropped units")
	save(t, b, "Note 3: the blue folder holds invoice 1003.", "Noted.")
	load(t, b, "blue folder invoice")
	check("after a repeat")
}

// TestRecencyTable: the table a load reads recency from holds what the
// formula gives, to the bit, at every age and half-life.
func TestRecencyTable(t *testing.T) {
	for _, hl := range []float64{1, 3.7, 8, 4096, 1e12, 1e13, math.Inf(1)} { // no decay at all is allowed
		b := newBuffer(t, option.WithHalfLife(hl))
		for _, age := range []int64{-1, 0, 1, 7, 8, 239, 240, 241, 4095, 4096, 1 << 20} {
			if got, want := b.recency(age), recency(age, hl); got != want {
				t.Errorf("half-life %v, age %d: table %v, formula %v", hl, age, got, want)
			}
		}
	}
}
