package vecindex

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/engram-go/engram"
)

// Nearest returns the closest ids first, at most as many as are indexed,
// and forgets a removed id.
func TestNearest(t *testing.T) {
	ctx := context.Background()
	ix := New()
	for id, v := range map[string][]float32{"east": {1, 0}, "north": {0, 1}, "north-east": {0.6, 0.8}} {
		if err := ix.Add(ctx, id, v); err != nil {
			t.Fatal(err)
		}
	}
	hits, err := ix.Nearest(ctx, []float32{0, 1}, 10)
	if err != nil || len(hits) != 3 || hits[0].ID != "north" || hits[1].ID != "north-east" {
		t.Fatalf("hits %v, %v", hits, err)
	}
	if err := ix.Remove(ctx, "north"); err != nil || ix.Count() != 2 {
		t.Fatalf("after a removal: %d indexed, %v", ix.Count(), err)
	}
}

// Normalised scales to unit length, keeps a zero vector zero, and refuses
// a component that is not finite as invalid input.
func TestNormalised(t *testing.T) {
	v, err := Normalised([]float32{3, 4})
	if err != nil || math.Abs(float64(v[0])-0.6) > 1e-6 || math.Abs(float64(v[1])-0.8) > 1e-6 {
		t.Fatalf("normalised %v, %v", v, err)
	}
	if v, err := Normalised([]float32{0, 0}); err != nil || !Zero(v) {
		t.Fatalf("a zero vector became %v, %v", v, err)
	}
	if _, err := Normalised([]float32{1, float32(math.Inf(1))}); !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("an infinite component: %v", err)
	}
}
