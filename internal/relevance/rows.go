package relevance

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"github.com/engram-go/engram/internal/ann"
)

// GatherAbove is the number of documents past which [Rows] keeps an
// approximate nearest-neighbour index (internal/ann) beside its matrix,
// and a load may gather ([Gather]) instead of scoring every document. At
// 16,384 documents of real dialogue a load that scores every one takes
// about 1.5 ms; the index costs about 144 bytes and 11 µs a document.
const GatherAbove = 1 << 14

// Rows is a corpus's embeddings, one row a document, numbered as the
// documents are, in blocks of blockRows rows that are never reallocated:
// a row stays where Append put it until Compact moves it, so an owner may
// keep it as the document's only copy of its vector (and Clear zeroes it).
// Relevance compares a row's first Compared components; past GatherAbove
// rows Rows also keeps an approximate index of them for [Gather]. The
// zero Rows is empty and ready. Like [Index] it is not safe for
// concurrent use, but for reads.
//
// When Compared is less than the rows' length, Rows packs each row: it
// keeps the compared part in float32 at unit length, with that part's
// norm, and the rest, which relevance never reads, as int8 codes with one
// scale a row, less than half the bytes of the float32 row. [Rows.Full]
// rebuilds the whole vector and [Rows.Dot] takes a product with it. The
// codes round each component to within 1/254 of the row's largest: the
// cosine of a rebuilt vector with its original stays above 0.999.
type Rows struct {
	// Above, if not 0, is this corpus's GatherAbove: a test's, to gather
	// over a collection it can fill quickly.
	Above int
	// Compared, if not 0, is how many leading components of a row
	// relevance compares (a query vector has that many); 0 for all. It is
	// set before the first row.
	Compared int

	blocks [][]float32 // rows, stride components each
	codes  [][]int8    // packed rows' tails, dim − Compared codes each
	scales [][]float32 // packed rows' compared norm and tail scale, two each
	n      int
	dim    int // the rows' length: 0 until the first row; −1 once a row did not fit
	near   *ann.Index
}

// blockShift sets how many rows one allocation holds: 1,024, a few
// hundred kilobytes.
const blockShift = 10

const blockRows = 1 << blockShift

// Append adds the next document's row, a copy of v, and returns it: the
// row the corpus keeps (packed, its compared part: see [Rows]), which
// Compact may move and Clear zeroes. A row of another length than the
// first turns the rows off for good: Append then returns nil, Blocks
// returns none and the corpus is read document by document; an owner of
// packed rows, whose vectors they are, appends rows of one length.
func (r *Rows) Append(v []float32) []float32 {
	if r.dim < 0 {
		return nil
	}
	if r.dim == 0 && r.n == 0 {
		r.dim = len(v)
	}
	if len(v) != r.dim || r.dim == 0 || r.Compared > r.dim {
		r.blocks, r.codes, r.scales, r.n, r.dim, r.near = nil, nil, nil, 0, -1, nil
		return nil
	}
	doc := r.n
	if doc>>blockShift == len(r.blocks) {
		r.blocks = append(r.blocks, make([]float32, blockRows*r.stride()))
		if r.Packed() {
			r.codes = append(r.codes, make([]int8, blockRows*(r.dim-r.Compared)))
			r.scales = append(r.scales, make([]float32, 2*blockRows))
		}
	}
	r.n++
	row := r.row(doc)
	r.put(doc, v)
	switch {
	case r.near != nil:
		_ = r.near.Add(int32(doc), r.cut(row)) // a row it refuses (not finite) is found by words alone
	case doc+1 > cmp.Or(r.Above, GatherAbove):
		r.near = ann.New(len(r.cut(row)))
		for d := range doc + 1 {
			_ = r.near.Add(int32(d), r.cut(r.row(d)))
		}
	}
	return row
}

// Packed reports whether the rows are packed (see [Rows]): Row is then a
// row's compared part at unit length, and Full rebuilds the whole.
func (r *Rows) Packed() bool { return r.Compared > 0 && r.Compared < r.dim }

// stride is the length of a row in blocks.
func (r *Rows) stride() int {
	if r.Packed() {
		return r.Compared
	}
	return r.dim
}

// put writes v into document doc's row.
func (r *Rows) put(doc int, v []float32) {
	row := r.row(doc)
	if !r.Packed() {
		copy(row, v)
		return
	}
	head, tail := v[:r.Compared], v[r.Compared:]
	var s float64
	for _, x := range head {
		s += float64(x) * float64(x)
	}
	norm := math.Sqrt(s)
	for i, x := range head {
		if norm > 0 {
			row[i] = float32(float64(x) / norm)
		} else {
			row[i] = 0
		}
	}
	var top float32
	for _, x := range tail {
		top = max(top, abs32(x))
	}
	scale, codes := top/127, r.code(doc)
	for i, x := range tail {
		codes[i] = 0
		if scale > 0 {
			codes[i] = int8(max(-127, min(127, math.Round(float64(x/scale)))))
		}
	}
	sc := r.scale(doc)
	sc[0], sc[1] = float32(norm), scale
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// Len returns the number of rows.
func (r *Rows) Len() int { return r.n }

// Row returns document doc's row, nil if it has none: packed (see
// [Rows]), its compared part at unit length.
func (r *Rows) Row(doc int) []float32 {
	if doc < 0 || doc >= r.n {
		return nil
	}
	return r.row(doc)
}

func (r *Rows) row(d int) []float32 {
	n := r.stride()
	b, i := r.blocks[d>>blockShift], (d&(blockRows-1))*n
	return b[i : i+n : i+n]
}

// code returns packed row d's tail codes; scale its norm and scale.
func (r *Rows) code(d int) []int8 {
	n := r.dim - r.Compared
	b, i := r.codes[d>>blockShift], (d&(blockRows-1))*n
	return b[i : i+n : i+n]
}

func (r *Rows) scale(d int) []float32 {
	b, i := r.scales[d>>blockShift], (d&(blockRows-1))*2
	return b[i : i+2 : i+2]
}

// Full returns document doc's whole vector in a new slice, rebuilt if the
// rows are packed; nil if it has none.
func (r *Rows) Full(doc int) []float32 {
	if doc < 0 || doc >= r.n {
		return nil
	}
	row := r.row(doc)
	if !r.Packed() {
		return slices.Clone(row)
	}
	out := make([]float32, r.dim)
	sc := r.scale(doc)
	for i, x := range row {
		out[i] = x * sc[0]
	}
	tail := out[r.Compared:]
	for i, c := range r.code(doc) {
		tail[i] = float32(c) * sc[1]
	}
	return out
}

// Dot returns the dot product of v, a whole vector, with document doc's
// row (rebuilt, if packed, without allocating it); 0 if it has none.
func (r *Rows) Dot(doc int, v []float32) float64 {
	if doc < 0 || doc >= r.n {
		return 0
	}
	if !r.Packed() {
		return Dot(r.row(doc), v)
	}
	if len(v) < r.dim {
		return 0
	}
	sc := r.scale(doc)
	return float64(sc[0])*Dot(r.row(doc), v[:r.Compared]) + float64(sc[1])*codeDot(r.code(doc), v[r.Compared:])
}

// codeDot returns Σ c[i]·v[i]: four float32 sums, of the components at
// each place modulo 4, added in order. Where the processor has SSE4.1 four
// lanes form them at once, with the same roundings: the same bits at a
// quarter of the time, which is most of a near-duplicate probe's.
func codeDot(c []int8, v []float32) float64 {
	v = v[:len(c)]
	if codeDotInLanes && len(c) > 0 {
		return codeDotSSE(&c[0], &v[0], len(c))
	}
	return codeDotGo(c, v)
}

// codeDotGo is codeDot in Go.
func codeDotGo(c []int8, v []float32) float64 {
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(c); i += 4 {
		s0 += float32(c[i]) * v[i]
		s1 += float32(c[i+1]) * v[i+1]
		s2 += float32(c[i+2]) * v[i+2]
		s3 += float32(c[i+3]) * v[i+3]
	}
	for ; i < len(c); i++ {
		s0 += float32(c[i]) * v[i]
	}
	return float64(s0 + s1 + s2 + s3)
}

// cut returns the compared part of row.
func (r *Rows) cut(row []float32) []float32 {
	if r.Compared > 0 {
		return row[:r.Compared]
	}
	return row
}

// Clear zeroes document doc's row, for a document that left: it matches
// nothing until Compact drops it.
func (r *Rows) Clear(doc int) {
	if doc < 0 || doc >= r.n {
		return
	}
	r.clearRow(doc)
	if r.near != nil {
		r.near.Remove(int32(doc))
	}
}

// Compact drops the rows keep marks false and moves the rest down in
// order, as [Index.Compact] does to the documents, and frees the blocks
// no row is left in. keep covers every row.
func (r *Rows) Compact(keep []bool) {
	if r.dim <= 0 || len(keep) != r.n {
		return
	}
	j := 0
	for d, k := range keep {
		if k {
			if j != d {
				r.move(j, d)
			}
			j++
		}
	}
	for d := j; d < r.n && d&(blockRows-1) != 0; d++ {
		r.clearRow(d)
	}
	r.n = j
	nb := (j + blockRows - 1) >> blockShift
	clear(r.blocks[nb:])
	r.blocks = r.blocks[:nb]
	if r.Packed() {
		clear(r.codes[nb:])
		clear(r.scales[nb:])
		r.codes, r.scales = r.codes[:nb], r.scales[:nb]
	}
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

// clearRow zeroes row d.
func (r *Rows) clearRow(d int) {
	clear(r.row(d))
	if r.Packed() {
		clear(r.code(d))
		clear(r.scale(d))
	}
}

// move copies row d to row j.
func (r *Rows) move(j, d int) {
	copy(r.row(j), r.row(d))
	if r.Packed() {
		copy(r.code(j), r.code(d))
		copy(r.scale(j), r.scale(d))
	}
}

// Blocks returns the rows as relevance reads them in order: blocks of
// rows Stride long, each but the last full, of which it compares the
// first Dim components. Rows that did not fit give none.
func (r *Rows) Blocks() Blocks {
	if r.dim <= 0 {
		return Blocks{}
	}
	return Blocks{Rows: r.blocks, N: r.n, Stride: r.stride(), Dim: cmp.Or(r.Compared, r.dim)}
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
	if r.near == nil || len(q) != r.near.Dim() {
		return nil
	}
	ids := r.near.Search(q, k, func(id int32) []float32 { return r.cut(r.row(int(id))) }, nil)
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
