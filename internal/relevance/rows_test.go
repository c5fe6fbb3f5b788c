package relevance

import (
	"math"
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

// embedderLike returns a vector shaped like the default embedder's: dense
// compared components at norm √½, then a sparse hashed tail at norm √½.
func embedderLike(rng *rand.Rand, compared, dim int) []float32 {
	v := make([]float32, dim)
	for i := range compared {
		v[i] = float32(rng.NormFloat64())
	}
	for range 6 {
		v[compared+rng.IntN(dim-compared)] += float32(rng.NormFloat64())
	}
	for _, part := range [][]float32{v[:compared], v[compared:]} {
		n := sqrt(Dot(part, part) * 2)
		for i := range part {
			part[i] /= float32(n)
		}
	}
	return v
}

func cosine(a, b []float32) float64 { return Dot(a, b) / sqrt(Dot(a, a)*Dot(b, b)) }

// Packed rows keep the compared part at unit length, where relevance
// reads it, and rebuild the whole vector close to what was appended: its
// cosine with the original at least 0.999 (what admission and merging,
// which compare whole vectors, may lose), Dot the rebuilt vector's
// product. Compact moves rows with their tails, across blocks; a row with
// no compared part stays zero there. Rows compared whole keep every
// vector as given.
func TestPackedRows(t *testing.T) {
	const compared, dim = 100, 228
	rng := rand.New(rand.NewPCG(3, 4))
	n := 2*blockRows + 10
	orig := make([][]float32, n)
	r := Rows{Compared: compared}
	whole := Rows{}
	for d := range orig {
		orig[d] = embedderLike(rng, compared, dim)
		if d == 7 {
			clear(orig[d][:compared]) // no word the compared part knows
		}
		r.Append(orig[d])
		whole.Append(orig[d])
	}
	if !r.Packed() || whole.Packed() {
		t.Fatalf("packed %v, whole %v", r.Packed(), whole.Packed())
	}
	if b := r.Blocks(); b.Stride != compared || b.Dim != compared {
		t.Fatalf("packed blocks %d×%d, want %d×%d", b.Stride, b.Dim, compared, compared)
	}
	q := embedderLike(rng, compared, dim)
	check := func(r *Rows, d int, v []float32) {
		t.Helper()
		full := r.Full(d)
		if c := cosine(full, v); len(full) != dim || c < 0.999 {
			t.Fatalf("row %d rebuilt at cosine %v with its vector", d, c)
		}
		if got, want := r.Dot(d, q), Dot(full, q); math.Abs(got-want) > 1e-5 {
			t.Fatalf("row %d: Dot %v, the rebuilt vector's product %v", d, got, want)
		}
		if norm := Dot(r.Row(d), r.Row(d)); Dot(v, v) > 0.75 && math.Abs(norm-1) > 1e-5 {
			t.Fatalf("row %d's compared part has squared norm %v", d, norm)
		}
	}
	for d, v := range orig {
		if d == 7 {
			if slices.ContainsFunc(r.Row(d), func(x float32) bool { return x != 0 }) {
				t.Fatalf("a zero compared part became %v", r.Row(d))
			}
			continue
		}
		check(&r, d, v)
		if !slices.Equal(whole.Full(d), v) || whole.Dot(d, q) != Dot(v, q) {
			t.Fatalf("row %d compared whole is not kept as given", d)
		}
	}
	keep := make([]bool, n)
	var kept [][]float32
	for d := range keep {
		if keep[d] = d%3 != 0 || d > blockRows+40; keep[d] {
			kept = append(kept, orig[d])
		} else {
			r.Clear(d)
			if r.Dot(d, q) != 0 {
				t.Fatalf("Clear(%d) left a product", d)
			}
		}
	}
	r.Compact(keep)
	if r.Len() != len(kept) || len(r.Blocks().Rows) != (len(kept)+blockRows-1)/blockRows {
		t.Fatalf("%d rows in %d blocks after Compact, want %d", r.Len(), len(r.Blocks().Rows), len(kept))
	}
	for d, v := range kept {
		check(&r, d, v)
	}
	if got := r.Append(orig[1]); len(got) != compared || r.Len() != len(kept)+1 {
		t.Fatalf("Append after Compact gave %d components, %d rows", len(got), r.Len())
	}
	check(&r, len(kept), orig[1])
}
