package dmem

import (
	"cmp"
	"slices"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/credit"
)

// The learned gate ([option.WithGate]) corrects the hand-set policy the way
// gate.Prior corrects ratedistortion's weights: every priority the memory
// sets when it decides on a unit — admission, promotion, a merge — and every
// consolidation boost is multiplied by 2·Score(f), f the unit's features at
// admission, so an untrained gate (Score ½) changes nothing. The gate learns
// from what follows a load: a positive δ — the consolidation that boosts the
// units the load returned — teaches by Hindsight that they were needed, in
// proportion to δ; a negative reward teaches by Observe(f, 0) that they were
// not. Each unit costs one O(#features) update under the memory's lock.

// admission returns the features the learned gate judges u by: what was
// known when the memory last decided on it — its role, flags, length and
// the surprise that placed it — as for a unit just saved, with no query.
func admission(u *unit) engram.Features {
	return engram.Features{Recency: 1, Tokens: u.Tokens, Role: u.Role, Flags: u.Flags, Surprise: u.Delta}
}

// learned returns the learned gate's factor on u's priority: 2·Score, or 1
// without a gate.
func (m *Memory) learned(u *unit) float64 {
	if m.opts.Gate == nil {
		return 1
	}
	return 2 * m.opts.Gate.Score(admission(u))
}

// credit teaches the learned gate that u, returned by the latest load, was
// needed: a δ of surprise (in gate midpoints) followed. m.mu must be held.
func (m *Memory) credit(u *unit, surprise float64) {
	if m.opts.Gate != nil {
		m.opts.Gate.Hindsight(admission(u), surprise)
	}
}

// blame teaches the learned gate that the units the latest load returned
// were not needed: a negative reward followed. m.mu must be held.
func (m *Memory) blame() {
	if m.opts.Gate == nil {
		return
	}
	for _, id := range m.retrieved {
		if u, ok := m.byID[id]; ok {
			m.opts.Gate.Observe(admission(u), 0)
		}
	}
}

// saveGate puts the learned gate's state into the memory's state record.
// m.mu must be held.
func (m *Memory) saveGate() {
	if m.opts.Gate == nil {
		return
	}
	if b, err := m.opts.Gate.MarshalBinary(); err == nil {
		m.st.Gate = b
	}
}

// loadGate restores the learned gate from the state record. A state it
// cannot read (another version of the gate's format, damage) leaves the
// gate as it was given: a damaged record costs what it held, never the
// memory.
func (m *Memory) loadGate() {
	if m.opts.Gate == nil || len(m.st.Gate) == 0 {
		return
	}
	_ = m.opts.Gate.UnmarshalBinary(m.st.Gate)
}

// learnFromRating teaches what rated the latest load, adv the rating less
// the running mean, from its most relevant units, those most likely to
// have answered, as the load weighed them: the ledger's own gate
// (credit.Ledger.Learn), which corrects every later load's packing, and,
// from ratings above the mean, a learned gate given by [option.WithGate] (which
// sets priorities; taught by ratings below the mean too, it cost recall on
// real dialogue). m.mu must be held.
func (m *Memory) learnFromRating(adv float64) {
	if len(m.rated) == 0 || adv == 0 {
		return
	}
	// What the ledger credited: a Recall's units as much as a load's. As a
	// long-term tier the memory is rarely loaded itself, and its latest
	// load answered another question.
	kept := slices.Clone(m.rated)
	slices.SortStableFunc(kept, func(a, b cand) int { return cmp.Compare(b.rel, a.rel) })
	kept = kept[:min(len(kept), credit.Answerers)]
	fs := make([]engram.Features, len(kept))
	for i, c := range kept {
		fs[i] = c.f
	}
	m.ratings.Learn(fs, adv)
	if m.opts.Gate == nil || adv < 0 {
		return
	}
	for _, c := range kept {
		if u, ok := m.byID[c.id]; ok {
			m.opts.Gate.Hindsight(admission(u), adv)
		}
	}
}
