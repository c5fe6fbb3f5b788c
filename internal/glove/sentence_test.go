package glove

import (
	"math"
	"testing"
)

func TestEmbedUnitAndDeterministic(t *testing.T) {
	for _, s := range []string{"We adopted a beagle named Biscuit.", "dog", chatLine} {
		a, b := Embed(nil, s), Embed(nil, s)
		if len(a) != Dim || !bitsEqual(a, b) {
			t.Fatalf("%q: %d components, deterministic %v", s, len(a), bitsEqual(a, b))
		}
		var n float64
		for _, x := range a {
			n += float64(x) * float64(x)
		}
		if math.Abs(n-1) > 1e-5 {
			t.Errorf("%q: norm² %v, want 1", s, n)
		}
	}
	// Stop words, unknown words and no words give the zero vector.
	for _, s := range []string{"", "the and of", "I'm so, so sorry!", "xyzzyq qwzx"} {
		for _, x := range Embed(nil, s) {
			if x != 0 {
				t.Fatalf("Embed(%q) is not zero", s)
			}
		}
	}
}

func TestEmbedAppends(t *testing.T) {
	dst := []float32{7, 8}
	got := Embed(dst, "a beagle")
	if len(got) != 2+Dim || got[0] != 7 || got[1] != 8 || !bitsEqual(got[2:], Embed(nil, "a beagle")) {
		t.Fatalf("Embed appended wrongly: len %d, prefix %v", len(got), got[:2])
	}
	buf := make([]float32, 0, Dim)
	if n := testing.AllocsPerRun(50, func() { Embed(buf[:0], chatLine) }); n != 0 {
		t.Errorf("Embed with room in dst allocates %v times", n)
	}
}

// Case, punctuation and stop words do not change the embedding.
func TestEmbedIgnoresForm(t *testing.T) {
	a := Embed(nil, "Priya moved to Lisbon!")
	b := Embed(nil, "priya moved lisbon")
	if !bitsEqual(a, b) {
		t.Errorf("cos = %.6f, want identical", cos(a, b))
	}
}

// Lines on one topic score well above unrelated lines, whether or not
// they share words.
func TestEmbedSimilarity(t *testing.T) {
	for _, tc := range []struct{ q, near, far string }{
		{"I need to unwind after work", "Baking sourdough helps me relax", "The stock market fell sharply today"},
		{"We adopted a puppy last week", "Our new dog is a beagle", "My sister is studying chemistry at university"},
		{"Where does Priya live now?", "Priya moved to Lisbon last spring.", "The weather has been lovely all week."},
		{"I love hiking in the mountains", "We walked a trail up to the summit", "The weather was awful in Denver"},
	} {
		q := Embed(nil, tc.q)
		near, far := cos(q, Embed(nil, tc.near)), cos(q, Embed(nil, tc.far))
		if near < far+0.2 || far > 0.25 {
			t.Errorf("%q: near %.3f, far %.3f; want near ≥ far + 0.2, far ≤ 0.25", tc.q, near, far)
		}
	}
}

// The common direction takes out what unrelated sentences share.
func TestCommonDirection(t *testing.T) {
	tb := load()
	var n float64
	for _, x := range tb.common {
		n += x * x
	}
	if math.Abs(n-1) > 1e-5 {
		t.Fatalf("norm² %v", n)
	}
	for _, s := range []string{"The stock market fell sharply today", "My sister is studying chemistry"} {
		var d float64
		for i, x := range Embed(nil, s) {
			d += float64(x) * tb.common[i]
		}
		if math.Abs(d) > 1e-6 {
			t.Errorf("%q: projection on the common direction %v, want 0", s, d)
		}
	}
}
