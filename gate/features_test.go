package gate

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
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

// A blob whose weights are finite but absurd is refused, since such a gate
// scores NaN; one that only passes the bound loads.
func TestUnmarshalBoundsWeights(t *testing.T) {
	g, err := New()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := g.MarshalBinary()
	off := len(magic) + 2 + 4*8 + 8*featRetrieved // weight of "retrieved"
	patch := func(w float64) []byte {
		p := append([]byte(nil), b...)
		binary.LittleEndian.PutUint64(p[off:], math.Float64bits(w))
		body := p[:len(p)-4]
		binary.LittleEndian.PutUint32(p[len(p)-4:], crc32.ChecksumIEEE(body))
		return p
	}
	var h Gate
	if err := h.UnmarshalBinary(patch(1e308)); !errors.Is(err, ErrFormat) {
		t.Fatalf("weight 1e308 accepted: %v", err)
	}
	if err := h.UnmarshalBinary(patch(-999)); err != nil {
		t.Fatalf("weight -999 refused: %v", err)
	}
	if s := h.Score(engram.Features{Retrieved: 1 << 20, AgeSteps: 1 << 40}); math.IsNaN(s) {
		t.Fatal("score NaN")
	}
}

// Learning keeps the state inside the bounds it loads with: what a gate
// saves, it can load, however extreme its inputs were.
func TestLearningStaysLoadable(t *testing.T) {
	g, err := New()
	if err != nil {
		t.Fatal(err)
	}
	f := engram.Features{Relevance: 1e300, Tokens: 1 << 30, Retrieved: 1 << 40, AgeSteps: 1 << 60, Surprise: 1e300}
	for i := range 10000 {
		g.Observe(f, float64(i%2))
		g.Hindsight(f, 1e300)
	}
	b, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var h Gate
	if err := h.UnmarshalBinary(b); err != nil {
		t.Fatalf("a trained gate's own blob is refused: %v", err)
	}
}
