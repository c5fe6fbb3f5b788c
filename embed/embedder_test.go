package embed

import (
	"context"
	"errors"
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
	if len(a) != DefaultDimensions {
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
	e, _ := New(WithDimensions(64))
	vs, err := e.EmbedDocuments(context.Background(), []string{"a cat", "a dog"})
	if err != nil || len(vs) != 2 || len(vs[0]) != 64 {
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
	e, _ := New()
	for b.Loop() {
		e.Embed("Oh, before I forget, Toast the golden retriever has officially joined the family.")
	}
}
