package dmem

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/engram-go/engram"
)

// Explanation is why a unit is where it is.
type Explanation struct {
	// ID and Text identify the unit; Text is empty once only its history is kept.
	ID   string
	Text string
	// Route is where it is now: core, short, nowhere, or merged into another unit.
	Route Route
	// Delta is the signed surprise that placed it (an RPE, or novelty for a
	// step without reward), Gate the gate's output for it, Novelty the
	// novelty measured on arrival, Reward the rewards it received.
	Delta, Gate, Novelty, Reward float64
	// Priority is its priority now (0 if not stored).
	Priority float64
	// Merged counts the near-duplicate steps folded into it; Retrieved the
	// loads that returned it.
	Merged, Retrieved int
	// Learned is the learned gate's score for the unit's features at
	// admission ([WithGate]), and LearnedParts its parts on the logit
	// scale, one per feature the unit has (gate.Gate.Contributions); its
	// priorities were multiplied by 2·Learned. 0 and nil without a gate.
	Learned      float64
	LearnedParts map[string]float64
	// History lists what happened to it: routing, rewards, promotion,
	// merges, boosts, eviction (the first event and the latest ones).
	History []Event
}

// Explain returns why unit id was stored, routed, kept or evicted. Units
// that left memory are explained as long as WithHistory allows; after that,
// and for unknown ids, it returns [engram.ErrNotFound].
func (m *Memory) Explain(id string) (Explanation, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closed {
		return Explanation{}, fmt.Errorf("dmem: explain: %w", engram.ErrClosed)
	}
	u, stored := m.byID[id]
	if !stored {
		var ok bool
		if u, ok = m.gone[id]; !ok {
			return Explanation{}, fmt.Errorf("dmem: explain %q: %w", id, engram.ErrNotFound)
		}
	}
	x := Explanation{
		ID: u.ID, Text: u.Text, Route: u.Route, Delta: u.Delta, Gate: u.Gate, Novelty: u.Novelty,
		Reward: u.Reward, Merged: u.Merged, Retrieved: u.Retrieved, History: slices.Clone(u.History),
	}
	if stored {
		x.Priority = m.priorityAt(u, m.st.Seq)
	}
	if g := m.opts.gate; g != nil {
		f := admission(u)
		x.Learned, x.LearnedParts = g.Score(f), g.Contributions(f)
	}
	return x, nil
}

// String renders the explanation, one event a line.
func (x Explanation) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s %s: δ=%+.3f g=%.2f novelty=%.2f reward=%g priority=%.3f merged=%d retrieved=%d %q\n",
		x.ID, x.Route, x.Delta, x.Gate, x.Novelty, x.Reward, x.Priority, x.Merged, x.Retrieved, short(x.Text))
	if x.LearnedParts != nil {
		fmt.Fprintf(&sb, "  learned gate %.2f:", x.Learned)
		for _, k := range slices.Sorted(maps.Keys(x.LearnedParts)) {
			fmt.Fprintf(&sb, " %s=%+.3f", k, x.LearnedParts[k])
		}
		sb.WriteByte('\n')
	}
	for _, e := range x.History {
		fmt.Fprintf(&sb, "  step %d: %s → %s δ=%+.3f g=%.2f priority=%.3f\n", e.Step, e.Kind, e.Route, e.Delta, e.Gate, e.Priority)
	}
	return sb.String()
}
