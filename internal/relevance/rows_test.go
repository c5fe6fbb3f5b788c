package relevance

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// After rows are cleared and compacted, Nearest's ids are the new row
// numbers: each is the best row by exact product, as a scan finds it.
func TestRowsNearestAfterCompact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const dim = 8
	var r Rows
	r.Above = 100
	unit := func() []float32 {
		v := make([]float32, dim)
		var s float32
		for i := range v {
			v[i] = float32(rng.NormFloat64())
			s += v[i] * v[i]
		}
		for i := range v {
			v[i] /= float32(sqrt(float64(s)))
		}
		return v
	}
	for range 300 {
		r.Append(unit())
	}
	keep := make([]bool, r.Len())
	for d := range keep {
		keep[d] = d%3 != 0
		if !keep[d] {
			r.Clear(d)
		}
	}
	r.Compact(keep)
	for range 50 {
		r.Append(unit())
	}
	for range 20 {
		q := unit()
		got := r.Nearest(q, 5)
		type s struct {
			id int
			x  float64
		}
		var all []s
		for i := range r.Len() {
			all = append(all, s{i, Dot(r.Row(i), q)})
		}
		slices.SortFunc(all, func(a, b s) int {
			if a.x > b.x {
				return -1
			} else if a.x < b.x {
				return 1
			}
			return a.id - b.id
		})
		for i, id := range got {
			if id != all[i].id {
				t.Fatalf("Nearest %v, scan %v", got, all[:5])
			}
		}
	}
}

func sqrt(x float64) float64 {
	z := x
	for range 30 {
		z = (z + x/z) / 2
	}
	return z
}
