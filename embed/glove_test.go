package embed

import (
	"errors"
	"math"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/glove"
)

var lines = []string{
	"I need to unwind after work",
	"Baking sourdough helps me relax",
	"The stock market fell sharply today",
	"We adopted a beagle named Biscuit.",
	"Dana adopted a beagle last spring",
}

// With share 0 the vector is the hashed part alone, as before GloVe.
func TestGloVeShareZero(t *testing.T) {
	e, err := New(WithGloVeShare(0), WithDimensions(64))
	if err != nil {
		t.Fatal(err)
	}
	if e.Dimensions() != 64 {
		t.Fatalf("Dimensions() = %d, want 64", e.Dimensions())
	}
	for _, s := range lines {
		v := e.Embed(s)
		if !bitsEqual(v, e.hashed(nil, s)) {
			t.Errorf("%q: share 0 is not the hashed vector", s)
		}
	}
}

// The dot product of two embeddings is w·cos_glove + (1−w)·cos_hashed.
func TestGloVeShareMixesCosines(t *testing.T) {
	for _, w := range []float64{0.25, DefaultGloVeShare, 0.75, 1} {
		e, err := New(WithGloVeShare(w))
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range lines {
			va := e.Embed(a)
			if len(va) != e.Dimensions() || math.Abs(norm2(va)-1) > 1e-5 {
				t.Fatalf("w %v, %q: len %d, norm² %v", w, a, len(va), norm2(va))
			}
			for _, b := range lines[i+1:] {
				cg := Cosine(glove.Embed(nil, a), glove.Embed(nil, b))
				ch := Cosine(e.hashed(nil, a), e.hashed(nil, b)) // without concepts beside GloVe
				want := w*cg + (1-w)*ch
				if got := Cosine(va, e.Embed(b)); math.Abs(got-want) > 1e-5 {
					t.Errorf("w %v, %q / %q: cos %.6f, want %.6f", w, a, b, got, want)
				}
			}
		}
	}
}

// GloVe lets lines on one topic meet though they share no word.
func TestGloVeFindsTopic(t *testing.T) {
	e, _ := New(WithGloVeShare(0.5))
	hashOnly, _ := New(WithGloVeShare(0))
	q, near, far := lines[0], lines[1], lines[2]
	hn, hf := Cosine(hashOnly.Embed(q), hashOnly.Embed(near)), Cosine(hashOnly.Embed(q), hashOnly.Embed(far))
	cn, cf := Cosine(e.Embed(q), e.Embed(near)), Cosine(e.Embed(q), e.Embed(far))
	if cn < cf+0.1 || cn-cf < 2*(hn-hf) {
		t.Errorf("cos near %.3f, far %.3f (hashed alone %.3f, %.3f); want near ≥ far + 0.1 and twice the hashed margin", cn, cf, hn, hf)
	}
}

// A text with hashed features but no word GloVe knows is still unit length.
func TestGloVePartMissing(t *testing.T) {
	e, _ := New(WithGloVeShare(0.5))
	for _, s := range []string{"Xyzzyq Qwzxv", "the and of"} {
		v := e.Embed(s)
		if !isZero(v[:GloVeDimensions]) {
			t.Fatalf("%q has a GloVe part", s)
		}
		if n := norm2(v); n != 0 && math.Abs(n-1) > 1e-5 {
			t.Errorf("%q: norm² %v, want 1 or 0", s, n)
		}
	}
	if isZero(e.Embed("Xyzzyq Qwzxv")) {
		t.Error("unknown words lost their hashed part")
	}
}

func TestGloVeShareInvalid(t *testing.T) {
	for _, w := range []float64{-0.1, 1.1, math.NaN(), math.Inf(1)} {
		if _, err := New(WithGloVeShare(w)); !errors.Is(err, engram.ErrInvalidOption) {
			t.Errorf("share %v: err = %v", w, err)
		}
	}
}

// The zero Embedder is New's default.
func TestZeroEmbedder(t *testing.T) {
	var z Embedder
	e, _ := New()
	if z.Dimensions() != e.Dimensions() || !bitsEqual(z.Embed(lines[0]), e.Embed(lines[0])) {
		t.Error("zero Embedder differs from New()")
	}
}

func norm2(v []float32) float64 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	return n
}

func bitsEqual(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}
