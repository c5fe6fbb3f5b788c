package dmem

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/engram-go/engram"
)

// Explain returns the report of the latest LoadMemoryVariables, in the
// shape every engram memory gives ([engram.LoadReport]): the candidates
// the load weighed, oldest first, which it kept, their relevance and fused
// score; false before any load and after Clear. A unit's life in the
// memory (its route, surprise, priority, history) is [Memory.ExplainUnit]'s.
func (m *Memory) Explain() (engram.LoadReport, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.loaded == nil {
		return engram.LoadReport{}, false
	}
	return m.report(m.loaded), true
}

// loadNote is what a load weighed and returned, kept for Explain, which
// builds its report on demand: loads are many and explanations few.
type loadNote struct {
	query    string
	budget   int
	cs, kept []cand // kept in line order
	tokens   int
}

// noteLoad notes what a load for query within budget weighed (cs) and
// returned (kept, in line order; ids theirs): as retrieved, and for Explain.
func (m *Memory) noteLoad(query string, qkey []float32, budget int, cs, kept []cand, ids []string, epoch int64) {
	n := &loadNote{query: query, budget: budget, cs: cs, kept: kept}
	m.mu.Lock()
	defer m.mu.Unlock()
	// One lock for all of it, so that concurrent loads leave LastLoad,
	// Explain and what a rating rates describing one load, the latest.
	if !m.retrievedLocked(ids, true, epoch) {
		return // a Clear came since the search: what it kept is gone
	}
	if m.loaded != nil {
		giveCands(m.loaded.cs) // no report reads it once this one replaces it
	}
	m.loaded = n
	m.rated = kept
	m.ratings.Loaded(qkey, query, ids)
}

// report builds the LoadReport of n. A unit's time, admission features and
// route are read as the memory holds them now. m.mu is held.
func (m *Memory) report(n *loadNote) engram.LoadReport {
	r := engram.LoadReport{Query: n.query, Budget: n.budget, Tokens: m.cost(n.kept), Units: make([]engram.UnitReport, len(n.cs))}
	in := make(map[string]bool, len(n.kept))
	header := make(map[string]string)
	hs := headers(n.kept)
	for i, c := range n.kept {
		in[c.id] = true
		if hs != nil && hs[i] != "" {
			header[c.id] = strings.TrimSuffix(hs[i], "\n")
		}
	}
	for i, c := range n.cs {
		x := engram.UnitReport{
			ID: c.id, Seq: c.seq, Group: c.group, Role: c.role, Text: c.text, Time: c.at, Tokens: c.tokens,
			Kept: in[c.id], Header: header[c.id], Facts: c.fs, SupersededBy: c.newer, Relevance: c.rel, Utility: c.score,
			Features: engram.Features{Tokens: c.tokens, Role: c.role},
		}
		route := RouteCore // a unit another writer stored
		if u, ok := m.byID[c.id]; ok {
			x.Features, route = admission(u), u.Route
		}
		x.Why = why(x, route)
		if x.Kept && c.recent {
			x.Why = "one of the newest messages"
		}
		r.Units[i] = x
	}
	slices.SortStableFunc(r.Units, func(a, b engram.UnitReport) int { return cmp.Compare(a.Seq, b.Seq) })
	return r
}

// why says what decided x, a unit of route, in a few words.
func why(x engram.UnitReport, route Route) string {
	from := "core memory"
	if route == RouteShort {
		from = "the short-term buffer"
	}
	switch {
	case x.Kept && x.Relevance > 0:
		return "relevant, from " + from
	case x.Kept:
		return "salient, from " + from
	case x.SupersededBy != "":
		return "superseded by " + x.SupersededBy
	case x.Utility <= 0:
		return "worth nothing to this query"
	}
	return "did not fit the budget"
}

// UnitLife is why a unit is where it is, over its life in the memory:
// what [Memory.ExplainUnit] returns. What one load kept and dropped is
// [Memory.Explain]'s.
type UnitLife struct {
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
	// Facts are the facts it states ([option.WithFacts]), and SupersededBy the ID
	// of the newest stored unit that gives one of their slots another
	// value, "" if none does: a load passes its score on to that unit.
	Facts        []engram.Fact
	SupersededBy string
	// Learned is the learned gate's score for the unit's features at
	// admission ([option.WithGate]), and LearnedParts its parts on the logit
	// scale, one per feature the unit has (gate.Gate.Contributions); its
	// priorities were multiplied by 2·Learned. 0 and nil without a gate.
	Learned      float64
	LearnedParts map[string]float64
	// History lists what happened to it: routing, rewards, promotion,
	// merges, boosts, eviction (the first event and the latest ones).
	History []Event
}

// ExplainUnit returns why unit id was stored, routed, kept or evicted.
// Units that left memory are explained as long as WithDepartedUnits allows;
// after that, and for unknown ids, it returns [engram.ErrNotFound].
func (m *Memory) ExplainUnit(id string) (UnitLife, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closed {
		return UnitLife{}, fmt.Errorf("dmem: explain: %w", engram.ErrClosed)
	}
	u, stored := m.byID[id]
	if !stored {
		var ok bool
		if u, ok = m.gone[id]; !ok {
			return UnitLife{}, fmt.Errorf("dmem: explain %q: %w", id, engram.ErrNotFound)
		}
	}
	x := UnitLife{
		ID: u.ID, Text: u.Text, Route: u.Route, Delta: u.Delta, Gate: u.Gate, Novelty: u.Novelty,
		Reward: u.Reward, Merged: int(u.Merged), Retrieved: int(u.Retrieved), Facts: u.Facts, History: slices.Clone(u.History),
	}
	if n := m.successor(u.Seq, u.Facts); n != nil {
		x.SupersededBy = n.ID
	}
	if stored {
		x.Priority = m.priorityAt(u, m.st.Seq)
	}
	if g := m.opts.Gate; g != nil {
		f := admission(u)
		x.Learned, x.LearnedParts = g.Score(f), g.Contributions(f)
	}
	return x, nil
}

// String renders the explanation, one event a line.
func (x UnitLife) String() string {
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
	for _, f := range x.Facts {
		fmt.Fprintf(&sb, "  states %s | %s = %s\n", f.Subject, f.Relation, f.Value)
	}
	if x.SupersededBy != "" {
		fmt.Fprintf(&sb, "  superseded by %s\n", x.SupersededBy)
	}
	for _, e := range x.History {
		fmt.Fprintf(&sb, "  step %d: %s → %s δ=%+.3f g=%.2f priority=%.3f\n", e.Step, e.Kind, e.Route, e.Delta, e.Gate, e.Priority)
	}
	return sb.String()
}

// Explanation is [UnitLife].
//
// Deprecated: use UnitLife.
type Explanation = UnitLife
