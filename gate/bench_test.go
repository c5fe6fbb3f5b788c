package gate_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/gate"
)

// features returns n varied units' features.
func features(n int) []engram.Features {
	r := rand.New(rand.NewPCG(3, 4))
	fs := make([]engram.Features, n)
	for i := range fs {
		fs[i] = randomFeatures(r)
	}
	return fs
}

// BenchmarkScore is the inference time per unit: a load scores every unit
// of the pool once. ns/op is per unit.
func BenchmarkScore(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprint("pool=", n), func(b *testing.B) {
			g, _ := gate.New()
			fs := features(n)
			for i, f := range fs {
				g.Observe(f, float64(i%2))
			}
			var sink float64
			i := 0
			for b.Loop() {
				sink += g.Score(fs[i])
				if i++; i == n {
					i = 0
				}
			}
			_ = sink
		})
	}
}

// BenchmarkObserve is the training time per unit: one online hindsight
// update. ns/op is per unit.
func BenchmarkObserve(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprint("units=", n), func(b *testing.B) {
			g, _ := gate.New()
			fs := features(n)
			i := 0
			for b.Loop() {
				g.Observe(fs[i], float64(i&1))
				if i++; i == n {
					i = 0
				}
			}
		})
	}
}

// BenchmarkFit is the supervised mode's time per example and epoch.
func BenchmarkFit(b *testing.B) {
	ex := make([]gate.Example, 10000)
	for i, f := range features(len(ex)) {
		ex[i] = gate.Example{Features: f, Label: float64(i & 1)}
	}
	g, _ := gate.New()
	for b.Loop() {
		g.Fit(ex, 1)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ex)), "ns/example")
}

// BenchmarkMarshal reports the serialised size in bytes.
func BenchmarkMarshal(b *testing.B) {
	g, _ := gate.New()
	var data []byte
	for b.Loop() {
		data, _ = g.MarshalBinary()
	}
	b.ReportMetric(float64(len(data)), "bytes")
}
