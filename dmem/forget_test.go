package dmem

import (
	"fmt"
	"math"
	"testing"

	"github.com/engram-go/engram/dmem/store"
)

// However often a unit is boosted, its priority stays finite and at most
// maxPriority, in the unit and in the store's formula alike.
func TestPriorityIsBounded(t *testing.T) {
	logP := 0.0
	for i := range 5000 {
		logP = store.NewLogP(logP, float64(i)/4096, 5, 1, 0)
		if math.IsInf(logP, 0) || math.IsNaN(logP) {
			t.Fatalf("boost %d: LogP %v", i, logP)
		}
	}
	if p := math.Exp2(logP - 5000.0/4096); p > maxPriority*(1+1e-9) {
		t.Fatalf("priority %v above the ceiling %v", p, maxPriority)
	}
	m := &Memory{opts: defaults()}
	if p := m.priorityAt(&unit{LogP: 5000}, 0); p != maxPriority {
		t.Fatalf("a stored LogP of 5000 reads as priority %v, want the ceiling", p)
	}
}

// An agent loop that rewards every load keeps working: boosts never push a
// priority to +Inf and the salience to NaN.
func TestLongRewardedLoop(t *testing.T) {
	evalOnly(t, "run 2,500 rewarded turns (TestPriorityIsBounded covers the bound)")
	m := newMemory(t)
	for i := range 2500 {
		save(t, m, fmt.Sprintf("Turn %d: how is the weather in Lisbon today?", i), "Sunny.")
		if _, err := m.LoadMemoryVariables(bg, map[string]any{"input": "weather in Lisbon"}); err != nil {
			t.Fatalf("load %d: %v", i, err)
		}
		if err := m.Reward(bg, 1); err != nil {
			t.Fatalf("reward %d: %v", i, err)
		}
	}
}

// The memory's priorities keep to the bounds store.NewLogP keeps a store's
// records to, so that the memory and its store order evictions alike.
func TestPriorityBoundsMatchStore(t *testing.T) {
	if got, want := store.NewLogP(0, 0, 0, 0, 0), math.Log2(minPriority); got != want {
		t.Errorf("floor: store LogP %v, want %v", got, want)
	}
	if got, want := store.NewLogP(0, 0, 0, math.MaxFloat64, 0), math.Log2(maxPriority); got != want {
		t.Errorf("ceiling: store LogP %v, want %v", got, want)
	}
}
