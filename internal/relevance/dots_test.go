package relevance

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A scan in one call gives each row the bits Dot gives it, at every
// dimension either side of the 32-component blocks and at any stride.
func TestDotRowsGivesDotsBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dim := range []int{1, 3, 31, 32, 33, 63, 64, 96, 100, 101, 128, 228, 300} {
		for _, stride := range []int{dim, dim + 1, dim + 29} {
			const n = 37
			q := make([]float32, dim)
			for i := range q {
				q[i] = float32(rng.NormFloat64())
			}
			rows := make([]float32, (n-1)*stride+dim)
			for i := range rows {
				rows[i] = float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(5)-2)))
			}
			out := make([]float64, n)
			dotRows(q, rows, stride, out)
			for r := range n {
				want := Dot(rows[r*stride:r*stride+dim], q)
				if math.Float64bits(out[r]) != math.Float64bits(want) {
					t.Fatalf("dim %d stride %d row %d: %v, Dot gives %v", dim, stride, r, out[r], want)
				}
			}
		}
	}
}

// largest is the maximum of the values and 0.
func TestLargest(t *testing.T) {
	for _, xs := range [][]float64{nil, {}, {-1}, {0.5}, {1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0, 7}, {-3, -2}, {0, 0, 0, 9, 0}} {
		want := 0.0
		for _, x := range xs {
			want = max(want, x)
		}
		if got := largest(xs); got != want {
			t.Errorf("largest(%v) = %v, want %v", xs, got, want)
		}
	}
}

func BenchmarkScan(b *testing.B) {
	const n, dim = 10000, 100
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]float32, n*dim)
	for i := range rows {
		rows[i] = float32(rng.NormFloat64())
	}
	q := rows[:dim]
	out := make([]float64, n)
	b.Run("row by row", func(b *testing.B) {
		for b.Loop() {
			for r := range out {
				out[r] = Dot(rows[r*dim:(r+1)*dim], q)
			}
		}
	})
	b.Run("one call", func(b *testing.B) {
		for b.Loop() {
			dotRows(q, rows, dim, out)
		}
	})
}

// The four-lane product of an int8 code with a vector gives the bits the
// Go loop gives, at every length.
func TestCodeDotGivesTheLoopsBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 1; n <= 260; n++ {
		c := make([]int8, n)
		v := make([]float32, n)
		for i := range c {
			c[i] = int8(rng.IntN(255) - 127)
			v[i] = float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(5)-2)))
		}
		if got, want := codeDot(c, v), codeDotGo(c, v); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("n %d: %v, the loop gives %v", n, got, want)
		}
	}
}

func BenchmarkCodeDot(b *testing.B) {
	c := make([]int8, 128)
	v := make([]float32, 128)
	for i := range c {
		c[i], v[i] = int8(i-64), float32(i)/128
	}
	b.Run("loop", func(b *testing.B) {
		for b.Loop() {
			codeDotGo(c, v)
		}
	})
	b.Run("lanes", func(b *testing.B) {
		for b.Loop() {
			codeDot(c, v)
		}
	})
}
