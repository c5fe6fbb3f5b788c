package embed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/engram-go/engram"
)

func TestEmbedIsUnitAndDeterministic(t *testing.T) {
	e, err := New()
	if err != nil {
		t.Fatal(err)
	}
	a, b := e.Embed("We adopted a beagle named Biscuit."), e.Embed("We adopted a beagle named Biscuit.")
	if len(a) != defaultLen() || e.Dimensions() != len(a) {
		t.Fatalf("len %d", len(a))
	}
	var n float64
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("not deterministic")
		}
		n += float64(a[i]) * float64(a[i])
	}
	if math.Abs(n-1) > 1e-5 {
		t.Fatalf("norm² = %v, want 1", n)
	}
	for _, x := range e.Embed("the and of") {
		if x != 0 {
			t.Fatal("stop words only should embed to zero")
		}
	}
}

func TestSimilarityOrdersByWording(t *testing.T) {
	e, _ := New()
	q := e.Embed("When did Dana adopt the beagle?")
	near := e.Embed("Dana adopted a beagle last spring")
	morph := e.Embed("the adoption papers for the beagles")
	far := e.Embed("the weather was awful in Denver")
	if !(Cosine(q, near) > Cosine(q, morph) && Cosine(q, morph) > Cosine(q, far)) {
		t.Fatalf("cos near %.3f, morph %.3f, far %.3f: want decreasing", Cosine(q, near), Cosine(q, morph), Cosine(q, far))
	}
}

func TestEmbedderInterface(t *testing.T) {
	e, _ := New(WithDimensions(64), WithGloVeShare(0.5))
	vs, err := e.EmbedDocuments(context.Background(), []string{"a cat", "a dog"})
	if err != nil || len(vs) != 2 || len(vs[0]) != 64+GloVeDimensions {
		t.Fatalf("EmbedDocuments: %v, %d vectors", err, len(vs))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.EmbedQuery(ctx, "x"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: err = %v", err)
	}
	if _, err := New(WithDimensions(8)); !errors.Is(err, engram.ErrInvalidOption) {
		t.Fatalf("8 dimensions: err = %v", err)
	}
}

func BenchmarkEmbed(b *testing.B) {
	for _, w := range []float64{0, 0.5, DefaultGloVeShare} {
		b.Run(fmt.Sprint("glove=", w), func(b *testing.B) {
			e, _ := New(WithGloVeShare(w))
			e.Embed("warm up")
			b.ReportAllocs()
			for b.Loop() {
				e.Embed("Oh, before I forget, Toast the golden retriever has officially joined the family.")
			}
		})
	}
}

// The same text gives the same bits every time, however many features
// share a slot (a map's order once leaked into float32 sums).
func TestEmbedBitForBit(t *testing.T) {
	e, err := New(WithDimensions(16)) // few slots: many collisions
	if err != nil {
		t.Fatal(err)
	}
	s := "Priya moved to Lisbon last spring and started as a marine biologist at the aquarium; " +
		"her brother Anders visits in May, and they plan a trip to Porto, Braga and the Douro valley."
	first := e.Embed(s)
	for range 200 {
		for i, x := range e.Embed(s) {
			if math.Float32bits(x) != math.Float32bits(first[i]) {
				t.Fatalf("dim %d: %v then %v", i, first[i], x)
			}
		}
	}
}

// A tiny vector normalises to unit length, not to Inf and NaN.
func TestNormalizeTiny(t *testing.T) {
	v := make([]float32, 16)
	v[0], v[3] = 1e-40, -1e-40
	w := Normalized(v)
	var n float64
	for _, x := range w {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			t.Fatalf("Normalized = %v", w)
		}
		n += float64(x) * float64(x)
	}
	if math.Abs(n-1) > 1e-5 {
		t.Fatalf("norm² %v", n)
	}
}

// defaultLen is the vector length of New(): the GloVe part is there when
// the default share is above 0.
func defaultLen() int {
	if DefaultGloVeShare == 1 {
		return GloVeDimensions
	}
	if DefaultGloVeShare > 0 {
		return DefaultDimensions + GloVeDimensions
	}
	return DefaultDimensions
}
