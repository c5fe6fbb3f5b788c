package main

import "math"

// These mirror package glove's SIF weighting; change them together.
const (
	sifA     = 1e-4
	harmonic = 13.47643674099113 // Σ 1/k for k ≤ 400,000, GloVe 6B's vocabulary
)

// powerSteps is enough for the top eigenvector of GloVe's weighted second
// moment, whose first eigenvalue is several times the second.
const powerSteps = 100

// commonDirection returns the top eigenvector of M = Σ c_i v_i v_iᵀ, the
// second moment of the vectors weighted by c_i = p_i·w_i², where p_i is the
// Zipf estimate of word i's probability and w_i its SIF weight: the
// expected contribution of word i to a sentence's weighted sum. This is
// the common component Arora et al. remove from every sentence embedding,
// estimated from the vocabulary instead of a corpus of sentences. Each
// product is rounded explicitly (float64(…)) so that no platform fuses it
// into a multiply-add and the bytes differ.
func commonDirection(vecs []float32, ranks []int) []float32 {
	var m [Dim][Dim]float64
	for i, r := range ranks {
		p := 1 / (float64(r+1) * harmonic)
		w := sifA / (sifA + p)
		c := float64(p * float64(w*w))
		v := vecs[i*Dim : (i+1)*Dim]
		for a := range Dim {
			ca := float64(c * float64(v[a]))
			for b := a; b < Dim; b++ {
				m[a][b] += float64(ca * float64(v[b]))
			}
		}
	}
	for a := range Dim {
		for b := range a {
			m[a][b] = m[b][a]
		}
	}
	u := make([]float64, Dim)
	for i := range u {
		u[i] = 1
	}
	next := make([]float64, Dim)
	for range powerSteps {
		var n float64
		for a := range Dim {
			var s float64
			for b := range Dim {
				s += float64(m[a][b] * u[b])
			}
			next[a] = s
			n += float64(s * s)
		}
		inv := 1 / math.Sqrt(n)
		for a := range Dim {
			u[a] = next[a] * inv
		}
	}
	out := make([]float32, Dim)
	for i, x := range u {
		out[i] = float32(x)
	}
	return out
}
