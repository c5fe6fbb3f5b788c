package gate

import (
	"math"
	"testing"

	"github.com/engram-go/engram"
)

// Relevance above 1 — a match that also holds the kind of answer asked for
// — still counts for more: the gate's input does not flatten the top.
func TestRelevanceInputKeepsOrder(t *testing.T) {
	in := func(x float64) float64 { return phi(engram.Features{Relevance: x})[featRelevance] }
	prev := -1.0
	for _, x := range []float64{0, 0.1, 1, 2, 6, 24} {
		r := in(x)
		if !(r > prev) || r >= 1 {
			t.Fatalf("relevance %v maps to %v, after %v: want increasing, below 1", x, r, prev)
		}
		prev = r
	}
	if in(math.NaN()) != 0 || in(-3) != 0 || in(math.Inf(1)) != 1 {
		t.Fatalf("NaN, negative and +Inf relevance map to %v, %v, %v", in(math.NaN()), in(-3), in(math.Inf(1)))
	}
}
