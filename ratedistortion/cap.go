package ratedistortion

import (
	"math"
	"sort"

	"github.com/engram-go/engram"
)

// enforceCap drops the groups with the lowest query-free utility until the
// pool holds at most 90 % of the cap. It logs one Debug line per call, with
// the number of units dropped, and each unit at Debug. Pinned
// groups and the newest group stay. Dropping a batch at a time keeps
// SaveContext amortised O(log n). b.mu must be held.
func (b *Buffer) enforceCap() {
	target := b.opts.MaxUnits * 9 / 10
	type group struct {
		id      int64
		utility float64
		units   int
		pinned  bool
	}
	groups := make(map[int64]*group)
	var order []*group
	for _, e := range b.pool {
		g := groups[e.unit.Group]
		if g == nil {
			g = &group{id: e.unit.Group}
			groups[e.unit.Group] = g
			order = append(order, g)
		}
		u := b.opts.scorer.Score(b.features(e, 0, 0))
		if math.IsNaN(u) {
			u = 0
		}
		g.utility += u
		g.units++
		g.pinned = g.pinned || e.unit.Flags.Has(engram.FlagPinned)
	}
	newest := b.pool[len(b.pool)-1].unit.Group
	// Alone, the pool drops what is worth least; over a long-term tier,
	// which loses nothing, it hands down the oldest, so that the tier
	// receives the conversation in order and its neighbouring turns stay
	// neighbours.
	if b.opts.longTerm == nil {
		sort.SliceStable(order, func(i, j int) bool { return order[i].utility < order[j].utility })
	}
	drop := make(map[int64]float64)
	n := len(b.pool)
	for _, g := range order {
		if n <= target {
			break
		}
		if g.pinned || g.id == newest {
			continue
		}
		drop[g.id] = g.utility
		n -= g.units
	}
	if len(drop) == 0 {
		return
	}
	kept := b.pool[:0]
	dropped, best := 0, math.Inf(-1)
	for _, e := range b.pool {
		if u, ok := drop[e.unit.Group]; ok {
			delete(b.byID, e.unit.ID)
			b.unindex(e)
			b.forgetFlags(e)
			b.credit.Forget(e.unit.ID)
			b.forgetSaid(e)
			b.slots.Remove(e.unit.Seq, e.unit.Facts)
			if b.opts.longTerm != nil {
				d := engram.Demoted{Unit: e.unit, Retrieved: e.retrieved, Reward: e.reward, FactsRead: e.factsRead}
				d.Embedding = nil
				b.demoted = append(b.demoted, d)
			}
			for _, id := range e.toolIDs {
				// Only if it still names this unit's call: an id given again
				// (a model's reused one, or the next call Observe filed)
				// names a newer group, whose results must still find it.
				if g, ok := b.toolGroup[id]; ok && g == e.unit.Group {
					delete(b.toolGroup, id)
				}
			}
			b.dropped++
			dropped++
			best = max(best, u)
			b.opts.Logger.Debug("ratedistortion: pool cap: dropped unit",
				"id", e.unit.ID, "seq", e.unit.Seq, "group", e.unit.Group, "group_utility", u)
			continue
		}
		kept = append(kept, e)
	}
	// One line a cap event, not one a unit: a busy buffer drops thousands.
	// Routine, so at Debug: a capped buffer caps on most saves.
	msg := "ratedistortion: pool cap: dropped units"
	if b.opts.longTerm != nil {
		msg = "ratedistortion: pool cap: handed units down to the long-term tier"
	}
	b.opts.Logger.Debug(msg,
		"units", dropped, "groups", len(drop), "kept", len(kept), "cap", b.opts.MaxUnits,
		"max_group_utility", best, "dropped_total", b.dropped)
	clear(b.pool[len(kept):])
	b.pool = kept
	b.mat, b.matDim = nil, 0 // the units point into the old one: a new one, not overwritten
	b.index = nil            // by position: rebuilt when next read (lexical)
	b.seqs = b.seqs[:0]      // likewise (positionOf)
}
