package vecindex

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
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

// TestScannedAgrees: an index that scans its own rows finds what chromem's
// query finds, in the same order, through adds, removals and rows reused.
func TestScannedAgrees(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 7))
	vec := func() []float32 {
		v := make([]float32, 48)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		n, _ := Normalised(v)
		return n
	}
	chromemIx, scanned := New(), NewScanned()
	for i := range 3000 {
		id := fmt.Sprint(i)
		v := vec()
		if err := chromemIx.Add(ctx, id, v); err != nil {
			t.Fatal(err)
		}
		if err := scanned.Add(ctx, id, v); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 && i > 0 { // a removal, whose row the next add reuses
			gone := fmt.Sprint(r.IntN(i))
			_ = chromemIx.Remove(ctx, gone)
			_ = scanned.Remove(ctx, gone)
		}
	}
	if chromemIx.Count() != scanned.Count() {
		t.Fatalf("counts %d and %d", chromemIx.Count(), scanned.Count())
	}
	for range 50 {
		q := vec()
		want, err := chromemIx.Nearest(ctx, q, 64)
		if err != nil {
			t.Fatal(err)
		}
		got, err := scanned.Nearest(ctx, q, 64)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%d hits, chromem %d", len(got), len(want))
		}
		for i := range got {
			if got[i].ID != want[i].ID || math.Abs(got[i].Sim-want[i].Sim) > 1e-5 {
				t.Fatalf("hit %d: %v, chromem %v", i, got[i], want[i])
			}
		}
	}
	if err := scanned.Add(ctx, "short", []float32{1, 0}); !errors.Is(err, engram.ErrInvalidInput) {
		t.Errorf("a vector of another dimension: %v", err)
	}
}

func BenchmarkNearest(b *testing.B) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 1))
	for _, mk := range []struct {
		name string
		new  func() *Index
	}{{"chromem", New}, {"scanned", NewScanned}} {
		ix := mk.new()
		for i := range 10000 {
			v := make([]float32, 228)
			for j := range v {
				v[j] = float32(r.NormFloat64())
			}
			n, _ := Normalised(v)
			_ = ix.Add(ctx, fmt.Sprint(i), n)
		}
		probe := make([]float32, 228)
		for j := range probe {
			probe[j] = float32(r.NormFloat64())
		}
		q, _ := Normalised(probe)
		b.Run(mk.name+"-10000", func(b *testing.B) {
			for b.Loop() {
				if _, err := ix.Nearest(ctx, q, 64); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestScannedHugeN: asking for more neighbours than are held returns what
// is held, and costs no more.
func TestScannedHugeN(t *testing.T) {
	ctx := context.Background()
	ix := NewScanned()
	if err := ix.Add(ctx, "a", []float32{1, 0}); err != nil {
		t.Fatal(err)
	}
	hits, err := ix.Nearest(ctx, []float32{1, 0}, math.MaxInt)
	if err != nil || len(hits) != 1 || hits[0].ID != "a" {
		t.Fatalf("hits %v, %v", hits, err)
	}
}
