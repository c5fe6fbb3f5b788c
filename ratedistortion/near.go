package ratedistortion

import (
	"cmp"
	"math"
	"slices"

	"github.com/engram-go/engram/internal/ann"
	"github.com/engram-go/engram/internal/relevance"
)

// A pool past relevance.GatherAbove units is scored only where a load
// gathers (relevance.Gather): the units nearest the query by vector, found
// by an approximate index (internal/ann) of the pool's vectors, the best
// by the query's rarer words, the newest, and the turns around them. At
// 100,000 turns of real dialogue, scoring every unit took 6.7 ms a load.
//
// The index is keyed by a unit's Seq, which stays while the cap or a
// repeat moves the others: a unit joins it at the first load after it
// came (or after a repeat gave it a new Seq) and leaves it with the pool.
// A unit whose Seq is past the index's 32-bit ids is found by its words
// alone.

// nearest returns the positions of the k units whose vectors have the
// largest inner product with q, best first, as the approximate index finds
// them; nil below relevance.GatherAbove units, when the pool's vectors do
// not make a matrix, or for a query vector that does not fit. b.mu is held.
func (b *Buffer) nearest(q []float32, k int) ([]int, bool) {
	if len(b.pool) <= cmp.Or(b.nearAbove, relevance.GatherAbove) {
		return nil, false
	}
	rows, dim := b.matrix()
	if rows == nil {
		return nil, false
	}
	if b.near == nil || b.near.Dim() != dim {
		b.near, b.nearFrom = ann.New(dim), 0
	}
	// The units not yet indexed are the newest: the pool is in Seq order.
	from := len(b.pool)
	for from > 0 && b.pool[from-1].unit.Seq >= b.nearFrom {
		from--
	}
	for _, e := range b.pool[from:] {
		if e.unit.Seq <= math.MaxInt32 {
			_ = b.near.Add(int32(e.unit.Seq), e.vec.DenseOrNil()) // one it refuses is found by its words
		}
	}
	b.nearFrom = b.seq
	if len(q) != dim {
		return nil, true
	}
	// The re-ranking reads each vector as its row of the matrix, which
	// the unit's vector is: not through the unit, one read from memory
	// fewer a candidate.
	ids := b.near.Search(q, k, func(id int32) []float32 {
		if d, ok := b.positionOf(int64(id)); ok {
			return rows[d*dim : (d+1)*dim : (d+1)*dim]
		}
		return nil
	}, nil)
	out := make([]int, 0, len(ids))
	for _, id := range ids {
		if d, ok := b.positionOf(int64(id)); ok {
			out = append(out, d)
		}
	}
	return out, true
}

// positionOf returns the place in the pool of the unit whose Seq is seq.
// It searches b.seqs, the pool's Seqs side by side, rebuilt after the cap
// or a repeat moved units: searching the entries themselves reads one
// from memory at each step, and a load over 100,000 units spent a third
// of its time there. b.mu is held.
func (b *Buffer) positionOf(seq int64) (int, bool) {
	if len(b.seqs) != len(b.pool) {
		b.seqs = b.seqs[:0]
		for _, e := range b.pool {
			b.seqs = append(b.seqs, e.unit.Seq)
		}
	}
	// Seqs rise by at least one a unit, so seq can only be where as many
	// units before it fit: in a pool that lost few units the window is a
	// handful of places, and the search reads one or two from memory.
	ss := b.seqs
	n := int64(len(ss))
	if n == 0 || seq < ss[0] {
		return 0, false
	}
	if seq > ss[n-1] {
		return int(n), false
	}
	lo, hi := max(0, seq-ss[n-1]+n-1), min(n, seq-ss[0]+1)
	if lo >= hi { // Seqs not rising, which the pool never holds: search it all
		return slices.BinarySearch(ss, seq)
	}
	i, ok := slices.BinarySearch(ss[lo:hi], seq)
	return int(lo) + i, ok
}

// unindex takes e out of the approximate index, before it leaves the pool
// or takes a new Seq. b.mu is held.
func (b *Buffer) unindex(e *entry) {
	if b.near != nil && e.unit.Seq <= math.MaxInt32 {
		b.near.Remove(int32(e.unit.Seq))
	}
}
