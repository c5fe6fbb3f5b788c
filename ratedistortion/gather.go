package ratedistortion

import (
	"slices"

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
// of thousands of tokens they would not be chosen. A load gathers once the
// pool holds gatherRatio times the most relevant units it takes (512 units
// at 1,024 tokens) and more than gatherAbove. On the development set's
// conversations (up to 700 units) save-then-ask recall is the same
// gathered as exact and the rated replay's within 0.002 (0.006 for one
// figure), and a load at 1,024 tokens takes a seventh less time.
// gatherAbove is the pool size at or below which a load never gathers; a
// variable only so that a test can compare a gathered load with an exact
// one.
var gatherAbove = 256

// gatherRatio is how many times the most relevant units a load gathers
// (gatherTop) the pool must hold for it to gather: below that, the
// candidates with their pairs and the newest would be most of the pool.
const gatherRatio = 4

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
	// gatherDirectives is how many of the newest directives are
	// candidates of a load that computed relevance only where it gathered.
	gatherDirectives = 32
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
	// in marks the candidates, done those whose neighbours were looked
	// at: a unit first marked as another's pair is still expanded when it
	// qualifies itself, so the candidates do not depend on the order.
	in, done := grow(b.gatherIn, len(rel)), grow(b.gatherDone, len(rel))
	marked, expanded := b.gatherMarked[:0], b.gatherExpanded[:0]
	mark := func(d int) {
		if !in[d] {
			in[d] = true
			marked = append(marked, d)
		}
	}
	var add func(d int)
	add = func(d int) {
		if d < 0 || d >= len(rel) || done[d] {
			return
		}
		done[d] = true
		expanded = append(expanded, d)
		mark(d)
		if d >= n {
			return // a guest: its neighbours are the tier's
		}
		e := b.pool[d]
		for k := -gatherReach; k <= gatherReach; k++ {
			j := d + k
			if j < 0 || j >= n || done[j] {
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
	var best []int
	if b.gathered.Rel != nil {
		best = b.gathered.Top(b.gatherTop()) // relevance only where it gathered (near.go)
	} else {
		best = relevance.TopSet(rel, b.gatherTop(), &b.gatherScratch)
	}
	for _, d := range best {
		add(d)
	}
	for d := max(0, n-gatherRecent); d < len(rel); d++ {
		add(d) // the newest and every guest
	}
	for e := range b.pinned {
		if d, ok := b.position(e); ok {
			add(d)
		}
	}
	// Every directive, or, where relevance was only computed where the
	// load gathered, the newest: the others' utility is the directive's
	// alone, less than theirs for their recency.
	dirs := b.directives
	if b.gathered.Rel != nil {
		dirs = dirs[max(0, len(dirs)-gatherDirectives):]
	}
	for _, seq := range dirs {
		if d, ok := b.positionOf(seq); ok {
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
	if b.gathered.Rel != nil { // no guests, and few marked of many: order is the pool's
		out = append(out, marked...)
		slices.Sort(out)
	} else {
		for _, d := range order {
			if in[d] {
				out = append(out, d)
			}
		}
	}
	for _, d := range marked {
		in[d] = false
	}
	for _, d := range expanded {
		done[d] = false
	}
	b.gatherIn, b.gatherDone, b.gatherMarked, b.gatherExpanded = in, done, marked, expanded
	return out
}

// gatherTop is how many of the most relevant units a load gathers.
func (b *Buffer) gatherTop() int {
	return min(gatherMax, max(gatherMin, int(float64(b.opts.Budget)*gatherPerToken)))
}

// position returns e's place in the pool, found by its Seq (the pool is in
// Seq order), and whether e is there. b.mu is held.
func (b *Buffer) position(e *entry) (int, bool) {
	d, ok := b.positionOf(e.unit.Seq)
	return d, ok && b.pool[d] == e
}
