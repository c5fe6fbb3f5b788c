package boltstore_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/engram-go/engram/dmem"
)

var bg = context.Background()

// Words the tests' turns are made of.
var (
	fxNames  = []string{"Priya", "Marcus", "Yuki", "Diego", "Ingrid", "Omar", "Leila", "Soren", "Amara", "Tomas", "Keiko", "Rafael", "Noor", "Callum", "Beatriz", "Kwame", "Freya", "Idris", "Mei", "Anders"}
	fxCities = []string{"Lisbon", "Denver", "Kyoto", "Oaxaca", "Tallinn", "Halifax", "Porto", "Boise", "Reykjavik", "Savannah", "Vienna", "Prague", "Tucson", "Madison", "Dublin"}
	fxInstr  = []string{"cello", "banjo", "clarinet", "ukulele", "trombone", "harp"}
	fxDays   = []string{"Monday", "Tuesday", "Thursday", "Friday", "Saturday"}
	fxDishes = []string{"mushroom risotto", "pad thai", "shakshuka", "lamb tagine", "pierogi", "ramen"}
)

func choose[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func newMemory(t testing.TB, opts ...dmem.Option) *dmem.Memory {
	t.Helper()
	m, err := dmem.New(bg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func save(t testing.TB, m *dmem.Memory, in, out string) {
	t.Helper()
	if err := m.SaveContext(bg, map[string]any{"input": in}, map[string]any{"output": out}); err != nil {
		t.Fatal(err)
	}
}

func load(t testing.TB, m *dmem.Memory, q string) string {
	t.Helper()
	v, err := m.LoadMemoryVariables(bg, map[string]any{"input": q})
	if err != nil {
		t.Fatal(err)
	}
	return v["history"].(string)
}

// stored returns the texts of the units m holds, core and short-term.
func stored(m *dmem.Memory) map[string]bool {
	out := make(map[string]bool)
	for _, r := range [...]dmem.Route{dmem.RouteCore, dmem.RouteShort} {
		for _, u := range m.UnitsIn(r) {
			out[u.Text] = true
		}
	}
	return out
}
