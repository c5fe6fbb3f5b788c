package dmem

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/internal/vecindex"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/internal/memvars"
)

// Reward takes the outcome of what the agent did last. A rating of an
// answer — a reward after a load, right after it or after the SaveContext
// of the rated exchange, as an agent executor gives it — is about what that
// load showed, read on [−1, 1] (1: the answer had all it needed; −1: none
// of it; beyond is clamped). It is credited to the load as ratedistortion
// credits it (see the package doc, "Learning from ratings"): asked again in
// the same words, an answer at least partly right is shown again and
// one rated wholly wrong (−1) makes room for others, and every unit shown
// gains or loses standing, the rating less the running mean, which moves
// its relevance for every later question. A learned gate ([option.WithGate])
// learns from the units most likely to have answered. The
// rating does not move the latest step's route: it is not about that step.
//
// Any other reward attaches to the latest step, and judges its surprise:
// the reward prediction error δ = r + γ·E[V̄(s')] − V(s), with the next
// state's value estimated by the running mean until the next step arrives
// (the TD update then uses the real one). A surprising step is moved to
// core memory; a positive δ also consolidates the units the latest search
// returned; a negative one teaches a learned gate that they were not
// needed. Until some such reward is non-zero, rewards are recorded but
// judge nothing: there is no scale to measure surprise against.
//
// r must be finite ([engram.ErrInvalidInput]) and is clamped to ±1e12;
// with neither a load to rate nor a step it fails with
// [engram.ErrNotFound].
func (m *Memory) Reward(ctx context.Context, r float64) error {
	if err := memvars.Context(ctx); err != nil {
		return fmt.Errorf("dmem: reward: %w", err)
	}
	if !finite(r) {
		return fmt.Errorf("dmem: reward %v: %w", r, engram.ErrInvalidInput)
	}
	m.mu.Lock()
	if err := m.writable(ctx, "reward"); err != nil {
		m.mu.Unlock()
		return err
	}
	if m.ratings.Pending() {
		adv, _ := m.ratings.Rate(r)
		m.learnFromRating(adv)
		m.mu.Unlock()
		return nil
	}
	if m.pending == nil {
		m.mu.Unlock()
		return fmt.Errorf("dmem: reward: no step to attach it to: %w", engram.ErrNotFound)
	}
	b := m.batch()
	m.reward(r, b)
	t := m.commit(b)
	m.mu.Unlock()
	return m.wait(ctx, t)
}

// reward attaches r to the pending step, which must exist, and judges the
// surprise. m.mu must be held.
func (m *Memory) reward(r float64, b *batch) {
	r = saturate(r)
	p := m.pending
	p.reward = saturate(p.reward + r)
	p.rewarded = true
	p.u.Reward = saturate(p.u.Reward + r)
	m.st.Rewards++
	if m.st.Rewards == 1 {
		m.st.RewardScale = math.Abs(r)
	} else {
		m.st.RewardScale += 0.05 * (math.Abs(r) - m.st.RewardScale)
	}
	if m.st.RewardScale == 0 {
		// Only zero rewards so far: no scale to judge surprise against
		// (the gate's midpoint would be 0, and every step surprising).
		b.put(p.u)
		return
	}
	delta := p.reward + m.opts.discount*m.st.MeanValue - m.st.Value.Online(&p.feat)
	if r < 0 && delta <= 0 {
		// The units the last load returned did not help. Blame them once:
		// later rewards judge later loads.
		m.blame()
		m.retrieved = nil
	}
	m.judge(p.u, delta, EventRewarded, b)
}

// maxReward bounds a reward, and the sums of rewards a step or a unit
// collects, so that no statistic overflows to infinity (which no store
// accepts).
const maxReward = 1e12

// saturate returns r within ±maxReward.
func saturate(r float64) float64 { return max(-maxReward, min(maxReward, r)) }

// judge gates a reward prediction error δ for u: a surprising δ moves u to
// core memory (from the short-term buffer, or back from nowhere) and raises
// its priority; a positive δ consolidates what the latest load returned.
// m.mu must be held.
func (m *Memory) judge(u *unit, delta float64, kind EventKind, b *batch) {
	floor := 0.25 * m.st.RewardScale
	g := m.rpe.value(delta, floor)
	mid := m.rpe.mid(floor)
	m.rpe.observe(delta)
	m.boost(delta, mid, b)
	if g <= u.Gate && kind == EventDecided {
		return // nothing new: keep histories short
	}
	if g > u.Gate {
		u.Delta, u.Gate = delta, g
	}
	p := priority(g, math.Abs(delta), mid) * m.learned(u)
	switch {
	case route(g) == RouteCore && u.Route != RouteCore && u.Route != RouteMerged && len(m.words.vector(u)) == m.st.Dim:
		if u.Route == RouteShort {
			m.unplace(u)
		} else {
			m.unbury(u, b)
		}
		m.place(u, RouteCore, p, EventPromoted, lexisOf(u.Text), b)
		return
	case u.Route == RouteCore && p > m.priorityAt(u, m.st.Seq):
		m.updatePriority(u, 1, 0, p, b)
	}
	u.record(Event{Step: m.st.Seq, Kind: kind, Route: u.Route, Delta: delta, Gate: g, Priority: m.priorityAt(u, m.st.Seq)})
	b.put(u)
}

// place puts u where route r says, with priority p; lx is what the words
// index keeps of its text. m.mu must be held.
func (m *Memory) place(u *unit, r Route, p float64, kind EventKind, lx lexis, b *batch) {
	u.Route = r
	u.LogP = m.logP(p, m.st.Seq)
	u.record(Event{Step: m.st.Seq, Kind: kind, Route: r, Delta: u.Delta, Gate: u.Gate, Priority: p})
	if r == RouteNowhere {
		m.bury(u, b)
		return
	}
	m.resident(u, lx)
	b.put(u)
	if r == RouteCore {
		heap.Push(&m.heap, u)
		// The store's copy may be a short-term record that keeps its priority.
		b.ops = append(b.ops, store.Priority(u.Seq, m.age(), 0, p, 0))
		b.core = true
		if v := m.words.indexed(u); m.w == nil && !vecindex.Zero(v) {
			// Only fails on an empty id or vector, which cannot happen here.
			if err := m.ix.Add(context.Background(), u.ID, v); err == nil {
				u.indexed = true
			}
		}
		m.evictOverflow(b)
		return
	}
	m.short = append(m.short, u)
	for len(m.short) > m.opts.shortTerm {
		old := m.short[0]
		m.unplace(old)
		old.record(Event{Step: m.st.Seq, Kind: EventOverwritten, Route: RouteNowhere})
		old.Route = RouteNowhere
		m.bury(old, b)
	}
}

// reindex gives the index u's vector again, which the words index moved
// (words.rebuild): chromem-go holds the slice it was given.
func (m *Memory) reindex(u *unit) {
	if u.indexed {
		// Only fails on an empty id or vector, which cannot happen here.
		_ = m.ix.Add(context.Background(), u.ID, m.words.indexed(u))
	}
}

// resident makes u findable: by id, by group, by LSH, by its words (lx).
func (m *Memory) resident(u *unit, lx lexis) {
	m.byID[u.ID] = u
	if m.opts.Recent > 0 {
		if len(m.latest) >= 2*m.opts.Recent {
			m.latest = append(m.latest[:0], m.latest[len(m.latest)-m.opts.Recent:]...)
		}
		m.latest = append(m.latest, u)
	}
	m.groups[u.Group] = append(m.groups[u.Group], u)
	m.lsh.Add(u, u.Embedding)
	m.words.add(u, lx)
	m.slots.Add(u.Seq, u.Facts)
}

// unplace removes u from wherever it is resident. m.mu must be held.
func (m *Memory) unplace(u *unit) {
	delete(m.byID, u.ID)
	if g := slices.DeleteFunc(m.groups[u.Group], func(x *unit) bool { return x == u }); len(g) > 0 {
		m.groups[u.Group] = g
	} else {
		delete(m.groups, u.Group)
	}
	m.lsh.Remove(u)
	m.words.remove(u)
	m.slots.Remove(u.Seq, u.Facts)
	if u.heapIdx >= 0 {
		heap.Remove(&m.heap, int(u.heapIdx))
	}
	if u.indexed {
		_ = m.ix.Remove(context.Background(), u.ID) // deleting by id cannot fail
		u.indexed = false
	}
	if i := slices.Index(m.short, u); i >= 0 {
		m.short = slices.Delete(m.short, i, i+1)
	}
}

// bury keeps the history of a unit that is not (or no longer) stored, within
// the bound of WithHistory. m.mu must be held.
func (m *Memory) bury(u *unit, b *batch) {
	if u.Seq != m.st.Seq-1 || u.Route == RouteMerged {
		u.Embedding = nil // only the newest step can still be rewarded back
	}
	// A unit no longer stored is shown by no load: what ratings said of it
	// would only grow the ledger.
	m.ratings.Forget(u.ID)
	m.gone[u.ID] = u
	m.goneOrder = append(m.goneOrder, u.Seq)
	b.put(u)
	m.trimHistory(b)
}

// trimHistory forgets the oldest departed units past the bound of
// WithHistory, writing each as it goes to b. m.mu must be held.
func (m *Memory) trimHistory(b *batch) {
	for len(m.goneOrder) > m.opts.departed {
		old := idOf(m.goneOrder[0])
		m.goneOrder = m.goneOrder[1:]
		if x, ok := m.gone[old]; ok {
			delete(m.gone, old)
			delete(m.meta, x.Seq)
			b.put(x)
		}
	}
}

// unbury takes u out of the gone histories, to store it again.
func (m *Memory) unbury(u *unit, b *batch) {
	delete(m.gone, u.ID)
	if i := slices.Index(m.goneOrder, u.Seq); i >= 0 {
		m.goneOrder = slices.Delete(m.goneOrder, i, i+1)
	}
}
