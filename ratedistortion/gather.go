package ratedistortion

import (
	"cmp"
	"slices"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/relevance"
)

// A load over a large pool gathers before it selects. Relevance is computed
// for every unit — from the lexical index's postings and one pass of
// products over the embedding matrix — but features, utilities and the
// knapsack, which cost most per unit, run only over the candidates: the
// most relevant units, the newest, what is pinned or a directive, and the
// units a candidate is kept or dropped with (its pair, its tool group, the
// turns it depends on or that depend on it, the statement superseding it).
// Units outside them hold little relevance and no recency: with a budget
// of thousands of tokens they would not be chosen. Below gatherAbove units
// every unit is a candidate, so a pool of the size the development set's
// conversations reach is selected exactly as before.
// gatherAbove is the pool size above which a load gathers; a variable
// only so that a test can compare a gathered load with an exact one.
var gatherAbove = 4096

const (
	// gatherPerToken is how many of the most relevant units are
	// candidates per token of budget, between gatherMin and gatherMax: a
	// unit of real dialogue costs about 30 tokens, so a budget holds a
	// quarter of its candidates. On real dialogue grown to 6,000 units
	// (TestGatherKeepsRecall) a load at 1,024 tokens recalled as much with
	// 32 candidates as with every unit.
	gatherPerToken = 1.0 / 8
	gatherMin      = 64
	gatherMax      = 1024
	// gatherRecent is how many of the newest units are candidates: past
	// 30 half-lives (the default 8 units) recency is 0.
	gatherRecent = 128
	// gatherReach is how far on each side of a candidate its neighbours
	// join it: a pair, a short tool group, a turn it depends on.
	gatherReach = max(2, facts.Reach)
)

// gather returns the candidates among order (chronological, numbered as
// entryAt numbers them), in the same order. rel is the relevance of each,
// stale the superseded units. b.mu is held.
func (b *Buffer) gather(order []int, rel []float64, stale map[*entry]string) []int {
	n := len(b.pool)
	// in marks the candidates: a slice the buffer keeps, cleared after
	// use by the list of what was marked (a map cost most of a load at
	// 100,000 units, one lookup a unit).
	in := grow(b.gatherIn, len(rel))
	var marked []int
	mark := func(d int) {
		if !in[d] {
			in[d] = true
			marked = append(marked, d)
		}
	}
	var add func(d int)
	add = func(d int) {
		if d < 0 || d >= len(rel) || in[d] {
			return
		}
		mark(d)
		if d >= n {
			return // a guest: its neighbours are the tier's
		}
		e := b.pool[d]
		for k := -gatherReach; k <= gatherReach; k++ {
			j := d + k
			if j < 0 || j >= n || in[j] {
				continue
			}
			// Its pair, and a turn it depends on or that depends on it,
			// with what that one depends on in turn: a chain of "but"s
			// comes whole.
			switch f := b.pool[j]; {
			case k < 0 && facts.Depends(e.facts, f.facts, -k) || k > 0 && facts.Depends(f.facts, e.facts, k):
				add(j)
			case f.unit.Group == e.unit.Group:
				mark(j)
			}
		}
		// A tool group reaches further than its neighbours when calls and
		// results interleave.
		if len(e.toolIDs) > 0 {
			for j := d - 1; j >= 0 && j >= d-64 && b.pool[j].unit.Group >= e.unit.Group-1; j-- {
				if b.pool[j].unit.Group == e.unit.Group {
					mark(j)
				}
			}
			for j := d + 1; j < n && j <= d+64; j++ {
				if b.pool[j].unit.Group == e.unit.Group {
					mark(j)
				}
			}
		}
	}
	top := min(gatherMax, max(gatherMin, int(float64(b.opts.Budget)*gatherPerToken)))
	for _, d := range relevance.Top(rel, top) {
		add(d)
	}
	for d := max(0, n-gatherRecent); d < len(rel); d++ {
		add(d) // the newest and every guest
	}
	for d, e := range b.pool {
		if e.unit.Flags.Has(engram.FlagPinned) || e.unit.Flags.Has(engram.FlagDirective) {
			add(d)
		}
	}
	for _, id := range stale {
		if e := b.byID[id]; e != nil {
			if d, ok := b.position(e); ok {
				add(d)
			}
		}
	}
	out := order[:0]
	for _, d := range order {
		if in[d] {
			out = append(out, d)
		}
	}
	for _, d := range marked {
		in[d] = false
	}
	b.gatherIn = in
	return out
}

// position returns e's place in the pool, found by its Seq (the pool is in
// Seq order), and whether e is there. b.mu is held.
func (b *Buffer) position(e *entry) (int, bool) {
	d, ok := slices.BinarySearchFunc(b.pool, e.unit.Seq, func(x *entry, seq int64) int { return cmp.Compare(x.unit.Seq, seq) })
	return d, ok && b.pool[d] == e
}
