package nearby

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/engram-go/engram/internal/relevance"
)

type item struct {
	v []float32
	e Entry
}

func newIndex(dim int) *Index[*item] {
	return New(dim, func(x *item) *Entry { return &x.e }, func(x *item, v []float32) float64 { return relevance.Dot(x.v, v) })
}

// add files x under its own vector.
func add(ix *Index[*item], x *item) { ix.Add(x, x.v) }

// unit returns a random unit vector.
func unit(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	var s float64
	for i := range v {
		v[i] = float32(r.NormFloat64())
		s += float64(v[i]) * float64(v[i])
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(s))
	}
	return v
}

// towards returns the unit vector at cosine c from the unit vector v.
func towards(r *rand.Rand, v []float32, c float64) []float32 {
	n := unit(r, len(v))
	var d float64
	for i := range v {
		d += float64(v[i]) * float64(n[i])
	}
	out := make([]float32, len(v))
	var s float64
	for i := range v {
		o := float64(n[i]) - d*float64(v[i]) // orthogonal to v
		out[i] = float32(o)
		s += o * o
	}
	sin := math.Sqrt(1 - c*c)
	for i := range out {
		out[i] = float32(c*float64(v[i]) + sin*float64(out[i])/math.Sqrt(s))
	}
	return out
}

// TestFindsNearDuplicates: among thousands of random vectors, a search
// finds the one stored at cosine 0.95 as often as the tables promise, reports it among
// those above the floor, and gives its cosine exactly.
func TestFindsNearDuplicates(t *testing.T) {
	const dim, n, trials = 64, 5000, 200
	r := rand.New(rand.NewPCG(1, 2))
	ix := newIndex(dim)
	for range n {
		add(ix, &item{v: unit(r, dim)})
	}
	found := 0
	for range trials {
		q := unit(r, dim)
		twin := &item{v: towards(r, q, 0.95)}
		add(ix, twin)
		best, sim, close := ix.Nearest(q, 0.9, nil)
		if best == twin {
			found++
			if math.Abs(sim-0.95) > 1e-4 {
				t.Fatalf("cosine %v, want 0.95", sim)
			}
			if len(close) == 0 || close[0].Item != twin {
				t.Fatalf("the twin is not among those above the floor: %v", close)
			}
		}
	}
	if found < trials*3/4 { // 1 − (1 − 0.899¹²)⁶ ≈ 0.86 expected
		t.Fatalf("found %d of %d twins at cosine 0.95", found, trials)
	}
}

// TestFarIsNotCompared: an item in the query's bucket but past farSigns
// signs away is not compared, and one just under is.
func TestFarIsNotCompared(t *testing.T) {
	var a, b [Tables]uint32
	for i := range farSigns - 1 {
		b[i%Tables] |= 1 << (i / Tables)
	}
	if far(a, b) {
		t.Fatalf("%d signs apart counted far", farSigns-1)
	}
	b[Tables-1] |= 1 << (Bits - 1)
	if !far(a, b) {
		t.Fatalf("%d signs apart not counted far", farSigns)
	}
	// The table number in a key's high bits never counts.
	a[1], b[1] = 1<<Bits, 1<<Bits|b[1]
	if !far(a, b) {
		t.Fatal("the table number changed the count")
	}
}

// TestRemoveAndDimensions: a removed item is never found again, though
// its owner no longer holds the vector it was filed under, and an item or
// a query of another dimension is ignored, not a panic.
func TestRemoveAndDimensions(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ix := newIndex(16)
	x := &item{v: unit(r, 16)}
	add(ix, x)
	if best, sim, _ := ix.Nearest(x.v, 0.5, nil); best != x || math.Abs(sim-1) > 1e-5 {
		t.Fatalf("a stored vector finds %v at %v, want itself at 1", best, sim)
	}
	q := x.v
	x.v = nil
	ix.Remove(x)
	ix.Remove(x)
	if best, _, _ := ix.Nearest(q, 0.5, nil); best != nil {
		t.Fatal("a removed item was found")
	}
	if len(ix.buckets) != 0 {
		t.Fatalf("%d buckets left after the only item went", len(ix.buckets))
	}
	odd := &item{v: unit(r, 8)}
	add(ix, odd)
	ix.Remove(odd)
	if best, sim, close := ix.Nearest(odd.v, 0, nil); best != nil || sim != 0 || close != nil {
		t.Fatal("a query of another dimension found something")
	}
}

// TestSearchBounded: however many items crowd one bucket, a search
// compares at most Probe of each, the newest.
func TestSearchBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ix := newIndex(16)
	v := unit(r, 16)
	var all []*item
	for range 10 * Probe {
		x := &item{v: v}
		add(ix, x)
		all = append(all, x)
	}
	_, _, close := ix.Nearest(v, 0.99, nil)
	if len(close) != Probe {
		t.Fatalf("compared %d of a crowded bucket, want %d", len(close), Probe)
	}
	for _, c := range close {
		if c.Item == all[0] {
			t.Fatal("the oldest item was compared before the newest")
		}
	}
}

// A search after 2³² others still compares every item once.
func TestMarkWraps(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	ix := newIndex(16)
	x := &item{v: unit(r, 16)}
	add(ix, x)
	ix.mark = math.MaxUint32
	if best, _, _ := ix.Nearest(x.v, 0.5, nil); best != x {
		t.Fatal("the search after the counter wrapped missed the item")
	}
	if best, _, _ := ix.Nearest(x.v, 0.5, nil); best != x {
		t.Fatal("the next search missed the item")
	}
}

// TestRemoveKeepsTheNewestSearched: removing an old item of a crowded
// bucket leaves the others in order, so that the newest is still among
// the Probe a search compares.
func TestRemoveKeepsTheNewestSearched(t *testing.T) {
	const dim = 32
	r := rand.New(rand.NewPCG(3, 4))
	ix := newIndex(dim)
	v := unit(r, dim)
	want := ix.keys(v)
	var olds []*item
	for len(olds) < 2*Probe {
		if w := towards(r, v, 0.999); ix.keys(w) == want {
			olds = append(olds, &item{v: w})
		}
	}
	for _, x := range olds {
		add(ix, x)
	}
	newest := &item{v: slices.Clone(v)}
	add(ix, newest)
	ix.Remove(olds[0])
	if got, sim, _ := ix.Nearest(slices.Clone(v), 0.5, nil); got != newest {
		t.Fatalf("after an old item left, the search found one at %.6f, not the newest (the vector itself)", sim)
	}
}
