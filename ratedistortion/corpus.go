package ratedistortion

import (
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/internal/text"
)

// The pool as relevance scores it: its lexical index by position, its
// vectors as one matrix, its entries as a relevance.Corpus.

// relevance scores every unit of the pool, then every guest (see
// Buffer.guests), against the query; past relevance.GatherAbove units,
// without guests, only the units the load gathers (near.go), in
// b.gathered, which the load gives back. Otherwise, without guests, the
// scores are formed in b.scratch: they are good until the next load.
// b.mu is held.
func (b *Buffer) relevance(query string, qvec []float32, off relevance.Component) []float64 {
	if query == "" {
		return make([]float64, len(b.pool)+len(b.guests))
	}
	q := relevance.NewQuery(query, qvec)
	q.Off = off
	if len(b.guests) > 0 {
		return relevance.ScoreWithGuests(q, b.lexical(), matrixPool{pool(b.pool), b}, b.gindex, guestCorpus{b})
	}
	if near, ok := b.nearest(q.Vec, b.gatherTop()); ok {
		b.gathered = relevance.Gather(q, b.lexical(), matrixPool{pool(b.pool), b}, near, b.gatherTop(), max(b.gatherTop(), gatherRecent), nil)
		// Facts move relevance to units the load may not have gathered
		// (supersede): Top reads every unit, Release clears them all.
		b.gathered.Wide = b.slots.Len() > 0
		return b.gathered.Rel
	}
	return relevance.ScoreReusing(q, b.lexical(), matrixPool{pool(b.pool), b}, &b.scratch)
}

// lexical returns the pool's lexical index, rebuilding it if the cap let
// units go since it was built (a repeat renumbers it in place): it numbers
// units by position, and a rebuild reads every unit's text, so a burst of
// saves pays for it once, at the next read, not once a save. b.mu is held.
func (b *Buffer) lexical() *relevance.Index {
	if b.index == nil {
		b.index = relevance.NewIndex()
		for i, e := range b.pool {
			// A unit's novelty was judged against everything before it,
			// dropped units included.
			b.index.Add(i, text.Excerpt(e.unit.Text), i-1, b.indexTerms(e))
		}
	}
	return b.index
}

// matrix brings b.mat up to date with the pool, appending the rows of units
// added since the last load, and returns it with its dimension; nil if some
// unit's embedding is sparse or of another dimension (scoring then reads
// each entry). The cap, a repeat that moves a unit and Clear drop it; the
// next load builds a new one.
//
// Each unit's embedding then is its row: the pool holds one copy of every
// vector, not one in the unit and another in the matrix. A matrix that
// grows is copied with an eighth to spare, and every unit moves to its new
// row. b.mu is held.
func (b *Buffer) matrix() ([]float32, int) {
	if b.matDim < 0 {
		return nil, 0
	}
	from := len(b.mat) / max(1, b.matDim)
	if from == len(b.pool) {
		return b.mat, b.matDim
	}
	for _, e := range b.pool[from:] {
		v := e.vec.DenseOrNil()
		if b.matDim == 0 {
			b.matDim = len(v)
		}
		if len(v) == 0 || len(v) != b.matDim {
			b.mat, b.matDim = nil, -1
			return nil, 0
		}
	}
	moved := from
	if need := len(b.pool) * b.matDim; cap(b.mat) < need {
		grown := make([]float32, len(b.mat), need+need/8)
		copy(grown, b.mat)
		b.mat, moved = grown, 0
	}
	for _, e := range b.pool[from:] {
		b.mat = append(b.mat, e.vec.DenseOrNil()...)
	}
	d := b.matDim
	for i, e := range b.pool[moved:] {
		i += moved
		row := b.mat[i*d : (i+1)*d : (i+1)*d]
		e.unit.Embedding, e.vec = row, relevance.Dense(row)
	}
	return b.mat, b.matDim
}

// matrixPool is the pool as a relevance.MatrixCorpus.
type matrixPool struct {
	pool
	b *Buffer
}

func (p matrixPool) Matrix() ([]float32, int) { return p.b.matrix() }

// pool adapts the entries to relevance.Corpus.
type pool []*entry

func (p pool) Len() int                      { return len(p) }
func (p pool) Sequential() bool              { return true }
func (p pool) Vector(i int) relevance.Vector { return p[i].vec }
func (p pool) Dense(i int) []float32         { return p[i].vec.DenseOrNil() }
func (p pool) Near(i, k int) int {
	if j := i + k; j >= 0 && j < len(p) {
		return j
	}
	return -1
}
