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

// slots is docs with empty places ("" documents), which Near never reaches,
// as a corpus that keeps its numbering while documents leave.
type slots struct{ docs }

func (s slots) Near(i, k int) int {
	if j := s.docs.Near(i, k); j >= 0 && s.docs[j] != "" {
		return j
	}
	return -1
}

// holed is slots that says it is in order, with its empty places.
type holed struct{ slots }

func (holed) Sequential() bool { return true }

func (h holed) Empty(yield func(int) bool) {
	for i, d := range h.docs {
		if d == "" && !yield(i) {
			return
		}
	}
}

// With empty places the one pass still gives the general kernel's bits,
// whatever relevance an empty place holds.
func TestInSequenceWithHolesMatchesInContext(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		n := 1 + r.IntN(14)
		rel := make([]float64, n)
		d := make(docs, n)
		for i := range rel {
			if r.IntN(3) > 0 {
				rel[i] = r.Float64() * 3
			}
			if r.IntN(3) > 0 {
				d[i] = "x"
			} else if r.IntN(2) == 0 {
				rel[i] = 1e-12 // an emptied row's floor
			}
		}
		want := inContext(make([]float64, n), rel, slots{d})
		got := inContext(make([]float64, n), rel, holed{slots{d}})
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d: docs %q rel %v: in sequence %v, in context %v", trial, d, rel, got, want)
			}
		}
	}
}
