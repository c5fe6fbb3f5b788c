package relevance

import (
	"cmp"
	"sync"

	"github.com/engram-go/engram/internal/ann"
)

// GatherAbove is the number of documents past which [Rows] keeps an
// approximate nearest-neighbour index (internal/ann) beside its matrix,
// and a load may gather ([Gather]) instead of scoring every document. At
// 16,384 documents of real dialogue a load that scores every one takes
// about 1.5 ms; the index costs about 144 bytes and 11 µs a document.
const GatherAbove = 1 << 14

// Rows is a corpus's embedding matrix, one row a document, numbered as the
// documents are; past GatherAbove rows it also keeps an approximate index
// of them for [Gather]. The zero Rows is empty and ready. Like [Index] it
// is not safe for concurrent use, but for reads.
type Rows struct {
	// Above, if not 0, is this corpus's GatherAbove: a test's, to gather
	// over a collection it can fill quickly.
	Above int

	mat  []float32
	dim  int // 0 until the first row; −1 once a row did not fit
	near *ann.Index
}

// Append adds the next document's row, v (copied). A row of another width
// than the first turns the matrix off for good: Matrix then returns nil
// and the corpus is read document by document.
func (r *Rows) Append(v []float32) {
	if r.dim < 0 {
		return
	}
	if r.dim == 0 && len(r.mat) == 0 {
		r.dim = len(v)
	}
	if len(v) != r.dim || r.dim == 0 {
		r.mat, r.dim, r.near = nil, -1, nil
		return
	}
	doc := r.Len()
	r.mat = append(r.mat, v...)
	switch {
	case r.near != nil:
		_ = r.near.Add(int32(doc), v) // a row it refuses (not finite) is found by words alone
	case doc+1 > cmp.Or(r.Above, GatherAbove):
		r.near = ann.New(r.dim)
		for d := range doc + 1 {
			_ = r.near.Add(int32(d), r.row(d))
		}
	}
}

// Len returns the number of rows.
func (r *Rows) Len() int {
	if r.dim <= 0 {
		return 0
	}
	return len(r.mat) / r.dim
}

func (r *Rows) row(d int) []float32 { return r.mat[d*r.dim : (d+1)*r.dim : (d+1)*r.dim] }

// Clear zeroes document doc's row, for a document that left: it matches
// nothing until Compact drops it.
func (r *Rows) Clear(doc int) {
	if doc < 0 || doc >= r.Len() {
		return
	}
	clear(r.row(doc))
	if r.near != nil {
		r.near.Remove(int32(doc))
	}
}

// Compact drops the rows keep marks false and moves the rest down in
// order, as [Index.Compact] does to the documents. keep covers every row.
func (r *Rows) Compact(keep []bool) {
	if r.dim <= 0 || len(keep) != r.Len() {
		return
	}
	r.mat = CompactRows(r.mat, r.dim, keep)
	if r.near != nil {
		renum := make([]int32, len(keep))
		n := int32(0)
		for d, k := range keep {
			renum[d] = -1
			if k {
				renum[d], n = n, n+1
			}
		}
		r.near.Renumber(func(old int32) int32 { return renum[old] })
	}
}

// Matrix returns every row, back to back, and their width; nil if a row
// did not fit.
func (r *Rows) Matrix() ([]float32, int) {
	if r.dim <= 0 {
		return nil, 0
	}
	return r.mat, r.dim
}

// Gathered is a load's relevance over the documents it gathered: Rel holds
// every document's place, written only at Docs (ScoreAmong). Release
// gives Rel back once the load has read it. A caller that writes Rel
// elsewhere (a fact's newest statement given the relevance of the one it
// supersedes) sets Wide: Top then reads, and Release clears, every place.
type Gathered struct {
	Rel  []float64
	Docs []int
	Wide bool
}

// Gathers reports whether rows keeps an approximate index (past
// GatherAbove rows): a load over them should gather ([Gather]).
func (r *Rows) Gathers() bool { return r.near != nil }

// Nearest returns the k rows of largest inner product with q that the
// approximate index finds, best first; nil without an index or if q does
// not fit.
func (r *Rows) Nearest(q []float32, k int) []int {
	if r.near == nil || len(q) != r.dim {
		return nil
	}
	ids := r.near.Search(q, k, func(id int32) []float32 { return r.row(int(id)) }, nil)
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = int(id)
	}
	return out
}

// Gather returns the relevance of the documents a load over a large corpus
// needs: near (the nearest the query by vector, from the caller's
// approximate index), the k best by q's rarer words ([Index.Best]), the
// newest, extra, and the turns around them (ScoreAmong).
func Gather(q Query, ix *Index, c Corpus, near []int, k, newest int, extra []int) Gathered {
	n := c.Len()
	k, newest = max(0, min(k, n)), max(0, min(newest, n)) // a caller's k may be far above what is held
	seeds := make([]int, 0, len(near)+k+newest+len(extra))
	if q.On(Cosine) {
		seeds = append(seeds, near...)
	}
	seeds = append(seeds, ix.Best(q, k, bestPostings)...)
	for d := n - newest; d < n; d++ {
		seeds = append(seeds, d)
	}
	seeds = append(seeds, extra...)
	p := gatheredRel.Get().(*[]float64)
	if len(*p) < n {
		*p = make([]float64, n+n/4)
	}
	rel := (*p)[:n]
	return Gathered{Rel: rel, Docs: ScoreAmong(q, ix, c, seeds, rel)}
}

// bestPostings is how many postings Gather's search by words reads: the
// rarest of a question's words, which rank, and not a speaker's name that
// half the turns hold. At a million turns of real dialogue, all of them
// took 17 ms.
const bestPostings = 1 << 13

// gatheredRel holds the arrays Gathered.Rel is, zeroed between loads.
var gatheredRel = sync.Pool{New: func() any { return new([]float64) }}

// Top returns up to k of the gathered documents of highest relevance
// (ties to the lower document), in document order, as [TopSet] does over
// every document.
func (g Gathered) Top(k int) []int {
	if g.Wide {
		idx := TopSet(g.Rel, k, nil)
		return idx
	}
	vals := make([]float64, len(g.Docs))
	for i, d := range g.Docs {
		vals[i] = g.Rel[d]
	}
	idx := TopSet(vals, k, nil)
	for i, j := range idx {
		idx[i] = g.Docs[j]
	}
	return idx
}

// Release zeroes what the load wrote and gives Rel back for another load;
// g must not be read after.
func (g Gathered) Release() {
	if g.Rel == nil {
		return
	}
	if g.Wide {
		clear(g.Rel)
	}
	for _, d := range g.Docs {
		g.Rel[d] = 0
	}
	rel := g.Rel[:cap(g.Rel)]
	gatheredRel.Put(&rel)
}
