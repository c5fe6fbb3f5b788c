package nearby_test

import (
	"fmt"

	"github.com/engram-go/engram/dmem/internal/nearby"
)

type doc struct {
	name string
	vec  []float32
	e    nearby.Entry
}

// A memory asks, as it saves a step, which stored item it is nearest.
func Example() {
	dot := func(d *doc, v []float32) float64 {
		s := 0.0
		for i, x := range d.vec {
			s += float64(x * v[i])
		}
		return s
	}
	ix := nearby.New(3, func(d *doc) *nearby.Entry { return &d.e }, dot)
	for _, d := range []*doc{{name: "north", vec: []float32{1, 0, 0}}, {name: "east", vec: []float32{0, 1, 0}}} {
		ix.Add(d, d.vec)
	}
	best, sim, _ := ix.Nearest([]float32{0.6, 0.8, 0}, 0.9, nil)
	fmt.Printf("%s %.1f\n", best.name, sim)
	// Output: east 0.8
}
