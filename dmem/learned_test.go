package dmem

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/gate"
	"github.com/engram-go/engram/option"
	"github.com/tmc/langchaingo/schema"
)

func newGate(t *testing.T) *gate.Gate {
	t.Helper()
	g, err := gate.New()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// rewardedLoads stores facts about twelve people, then asks about the first
// three again and again, each answer followed by a reward of +1 (and one
// of −1 at the end). It returns the facts' ids by person.
func rewardedLoads(t *testing.T, m *Memory, rounds int) []string {
	t.Helper()
	var docs []schema.Document
	for i := range 12 {
		docs = append(docs, schema.Document{PageContent: fmt.Sprintf("%s moved to %s in %d and works as a %s.",
			fxNames[i%len(fxNames)], fxCities[i%len(fxCities)], 1990+i, []string{"nurse", "pilot", "chef"}[i%3])})
	}
	ids, err := m.AddDocuments(bg, docs)
	if err != nil {
		t.Fatal(err)
	}
	for k := range rounds {
		name := fxNames[k%3]
		if h := load(t, m, "Where did "+name+" move to?"); !strings.Contains(h, name+" moved") {
			t.Fatalf("round %d: the load misses %s:\n%s", k, name, h)
		}
		r := 1.0
		if k == rounds-1 {
			r = -1
		}
		if err := m.Observe(bg, engram.Step{Kind: engram.StepToolResult, Text: fmt.Sprintf("answered question %d about %s", k, name), Reward: r}); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

// The learned gate is saved with the memory's state and restored into the
// gate given on reopening, weights and learning state alike; a memory
// opened without a gate keeps the saved state for the next one that has.
func TestGateSavedAndRestored(t *testing.T) {
	dir := t.TempDir()
	g := newGate(t)
	m, err := New(bg, WithPath(dir), option.WithGate(g), option.WithTokenBudget(120))
	if err != nil {
		t.Fatal(err)
	}
	rewardedLoads(t, m, 8)
	want, wantState := g.Weights(), must(g.MarshalBinary())
	if want["bias"] == 0 {
		t.Fatalf("the gate learned nothing: %v", want)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}

	plain, err := New(bg, WithPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	save(t, plain, "What's new?", "Nothing much.")
	if err := plain.Close(); err != nil {
		t.Fatal(err)
	}

	g2 := newGate(t)
	m2 := newMemory(t, WithPath(dir), option.WithGate(g2))
	if got := g2.Weights(); !maps.Equal(got, want) {
		t.Fatalf("weights after reopen %v, want %v", got, want)
	}
	if got := must(g2.MarshalBinary()); !bytes.Equal(got, wantState) {
		t.Fatal("gate state after reopen differs")
	}
	_ = m2
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// With a learned gate, the units that loads returned before positive δs
// gain priority over the others by more than the hand-set consolidation
// alone gives them: the gate learns that such units are needed, and scales
// their boosts.
func TestGateRaisesRewardedUnits(t *testing.T) {
	lift := func(g *gate.Gate) float64 {
		opts := []Option{option.WithTokenBudget(60)}
		if g != nil {
			opts = append(opts, option.WithGate(g))
		}
		m := newMemory(t, opts...)
		ids := rewardedLoads(t, m, 12)
		var asked, other float64
		for i, id := range ids {
			x, err := m.ExplainUnit(id)
			if err != nil {
				t.Fatal(err)
			}
			if i < 3 {
				asked += math.Log(x.Priority) / 3
			} else {
				other += math.Log(x.Priority) / float64(len(ids)-3)
			}
		}
		return math.Exp(asked - other)
	}
	plain, gated := lift(nil), lift(newGate(t))
	t.Logf("priority of the rewarded units over the others: %.2f× without a gate, %.2f× with one", plain, gated)
	if !(plain > 1) || !(gated > plain) {
		t.Fatalf("lift %.3f without a gate, %.3f with one: want 1 < without < with", plain, gated)
	}
}

// Explain shows the learned gate's view of a unit when there is one.
func TestExplainShowsLearnedGate(t *testing.T) {
	m := newMemory(t, option.WithGate(newGate(t)), option.WithTokenBudget(60))
	ids := rewardedLoads(t, m, 4)
	x, err := m.ExplainUnit(ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if x.Learned <= 0 || x.Learned >= 1 || x.LearnedParts["bias"] == 0 || x.LearnedParts["role:system"] == 0 {
		t.Fatalf("learned gate in the explanation: %v %v", x.Learned, x.LearnedParts)
	}
	if s := x.String(); !strings.Contains(s, "learned gate") || !strings.Contains(s, "role:system=") {
		t.Fatalf("String lacks the learned gate:\n%s", s)
	}
	plain := newMemory(t)
	id, err := plain.AddDocuments(bg, []schema.Document{{PageContent: "Ada moved to Lisbon."}})
	if err != nil {
		t.Fatal(err)
	}
	if x, _ := plain.ExplainUnit(id[0]); x.LearnedParts != nil || strings.Contains(x.String(), "learned gate") {
		t.Fatalf("explanation without a gate shows one:\n%s", x)
	}
}
