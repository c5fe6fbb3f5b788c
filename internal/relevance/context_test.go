package relevance

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sequence is docs that says it is one conversation in order.
type sequence struct{ docs }

func (sequence) Sequential() bool { return true }

// The kernel's one pass over a conversation in order gives the bits the
// general kernel gives, zeros, edges and NaNs included.
func TestInSequenceMatchesInContext(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := 1 + r.IntN(12)
		rel := make([]float64, n)
		for i := range rel {
			if r.IntN(3) > 0 {
				rel[i] = r.Float64() * 3
			}
			if trial%10 == 9 && r.IntN(6) == 0 {
				rel[i] = math.NaN() // a NaN makes the maximum NaN
			}
		}
		d := make(docs, n)
		want := inContext(make([]float64, n), rel, d)
		got := inContext(make([]float64, n), rel, sequence{d})
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
				t.Fatalf("trial %d: rel %v: in sequence %v, in context %v", trial, rel, got, want)
			}
		}
	}
}
