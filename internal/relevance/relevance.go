package relevance

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/engram-go/engram/internal/text"
	"github.com/viterin/vek/vek32"
)

// LexicalShare is the weight of BM25 in the mix; cosine gets the rest.
const LexicalShare = 0.7

// Query is a query analysed once for scoring many documents.
type Query struct {
	Text  string
	Terms map[string]float64 // stemmed content word → weight
	Vec   []float32          // unit-normalised embedding; nil for none
	Off   Component          // components switched off for an ablation (WithOff); none by default
}

// NewQuery analyses text; vec is its embedding (may be nil).
func NewQuery(s string, vec []float32) Query {
	q := Query{Text: s, Terms: make(map[string]float64), Vec: vec}
	for _, t := range text.Terms(s) {
		q.Terms[t] = 1
	}
	return q
}

// DenseCorpus is a [Corpus] that can hand out a document's embedding as a
// plain vector, which scores faster than [Corpus.Vector]'s form. Dense
// returns nil where it has none (Vector is then asked).
type DenseCorpus interface {
	Corpus
	Dense(i int) []float32
}

// MatrixCorpus is a [Corpus] that keeps every document's embedding in one
// row-major matrix: document i is rows[i*dim : (i+1)*dim]. Scoring reads
// it in order instead of chasing one slice a document, which on a pool of
// a few hundred turns is most of the cosine's cost. Matrix returns nil
// rows when it has none; the corpus is then read as a [DenseCorpus] or
// through [Corpus.Vector].
type MatrixCorpus interface {
	Corpus
	Matrix() (rows []float32, dim int)
}

// BlockCorpus is a [Corpus] that keeps its documents' embeddings in
// blocks of rows ([Rows]): scoring reads them in order, as a
// [MatrixCorpus]'s.
type BlockCorpus interface {
	Corpus
	Blocks() Blocks
}

// Blocks is a corpus's embeddings in blocks of rows: document d is row
// d%blockRows of Rows[d/blockRows], Stride components long, of which
// relevance compares the first Dim. N is how many rows there are.
type Blocks struct {
	Rows        [][]float32
	N           int
	Stride, Dim int
}

// row returns document d's compared components.
func (b Blocks) row(d int) []float32 {
	i := (d & (blockRows - 1)) * b.Stride
	return b.Rows[d>>blockShift][i : i+b.Dim : i+b.Dim]
}

// blocksOf returns c's blocks when it keeps them, comparing dim
// components, for n documents.
func blocksOf(c Corpus, dim, n int) (Blocks, bool) {
	if bc, ok := c.(BlockCorpus); ok && dim > 0 {
		if b := bc.Blocks(); b.Dim == dim && b.N >= n {
			return b, true
		}
	}
	return Blocks{}, false
}

// Corpus is the documents a query is scored against, numbered from 0 as in
// the lexical index.
type Corpus interface {
	// Len returns the number of documents.
	Len() int
	// Vector returns document i's embedding.
	Vector(i int) Vector
	// Near returns the document k places after document i in the
	// conversation (before it for k < 0), or −1 if there is none.
	Near(i, k int) int
}

// Score returns the relevance of every document of c, never negative, at
// most 1 + 2·(contextNear + contextFar) + speakerCue + askedCue:
//
//  1. BM25 and cosine similarity, each divided by its maximum, mixed by
//     LexicalShare, then divided by the best document's;
//  2. plus contextNear of the neighbouring turns' and contextFar of the
//     turns two away (see [Corpus.Near]): in conversation the turn that
//     holds a fact often shares no word with the question, while the turn
//     before or after it does;
//  3. plus speakerCue for a turn whose speaker the question names, and
//     askedCue for one that answers a question asked just before it.
//
// Every step was measured on real dialogue (docs/measurements.md, "What relevance
// weighs"); what did not help there is gone.
func Score(q Query, ix *Index, c Corpus) []float64 {
	// Every document gets its cosine: a third of the turns a question
	// needs share no word with it.
	return score(q, ix, c, nil, nil)
}

// Scratch holds the arrays a score is formed in, for a caller that scores
// again and again under one lock: [ScoreReusing] returns one of them.
type Scratch struct{ lex, cos []float64 }

// arrays returns two zeroed arrays of n, reusing s's.
func (s *Scratch) arrays(n int) (lex, cos []float64) {
	if s == nil {
		return make([]float64, n), make([]float64, n)
	}
	if cap(s.lex) < n {
		s.lex, s.cos = make([]float64, n, n+n/8), make([]float64, n, n+n/8)
	}
	s.lex, s.cos = s.lex[:n], s.cos[:n]
	clear(s.lex)
	clear(s.cos)
	return s.lex, s.cos
}

// ScoreReusing is [Score] formed in s's arrays: what it returns is one of
// them, good until s is used again. A load scores every unit, and two
// arrays of the pool's length a load were a fifth of what it allocated.
func ScoreReusing(q Query, ix *Index, c Corpus, s *Scratch) []float64 {
	return score(q, ix, c, nil, s)
}

// ScoreSubset is [Score] for a corpus too large to compare the query's
// embedding with every document: it compares it only with docs (the nearest
// documents by a vector index, say), with as many documents of highest
// BM25, and with their neighbours (see [Corpus.Near]), and counts the
// cosine of the others as 0, below what the nearest have. Everything else —
// BM25 over words and concepts, the name gate, the expansion, answer
// typing — runs over the whole index from its postings, as in Score. It
// returns the relevance of every document; its cost is that of the
// postings the query reaches, a few passes over an array of c.Len()
// numbers, and about 10·len(docs) vector products.
func ScoreSubset(q Query, ix *Index, c Corpus, docs []int) []float64 {
	return score(q, ix, c, func(lex []float64, dot func(int)) {
		near := func(d int) {
			dot(d)
			for k := -contextReach; k <= contextReach; k++ {
				if j := c.Near(d, k); k != 0 && j >= 0 {
					dot(j)
				}
			}
		}
		for _, d := range docs {
			if d >= 0 && d < len(lex) {
				near(d)
			}
		}
		for _, d := range topK(lex, len(docs)) {
			if lex[d] == 0 {
				break
			}
			near(d)
		}
	}, nil)
}

// score runs BM25 over words and concepts, lets compare choose the
// documents whose cosine with the query is computed (by calling dot; nil
// for every document), and mixes the two.
func score(q Query, ix *Index, c Corpus, compare func(lex []float64, dot func(doc int)), s *Scratch) []float64 {
	n := c.Len()
	if len(q.Terms) == 0 && q.Vec == nil {
		return make([]float64, n)
	}
	lex, cos := s.arrays(n)
	ix.score(q.Terms, lex)
	if q.Vec != nil && q.On(Cosine) {
		if compare == nil {
			allCosines(q, c, cos)
		} else {
			compare(lex, cosines(q, c, cos))
		}
	}
	return mix(q, ix, c, lex, cos)
}

// allCosines writes into cos the cosine of the query with every document
// of c: in one pass over c's matrix when it has one, else document by
// document.
func allCosines(q Query, c Corpus, cos []float64) {
	dim := len(q.Vec)
	if rows := matrixRows(c, dim, len(cos)); rows != nil {
		dotRows(q.Vec, rows, dim, cos)
		floor(cos)
		return
	}
	if b, ok := blocksOf(c, dim, len(cos)); ok {
		for k, rows := range b.Rows {
			lo := k << blockShift
			if lo >= len(cos) {
				break
			}
			dotRows(q.Vec, rows, b.Stride, cos[lo:min(len(cos), lo+blockRows)])
		}
		floor(cos)
		return
	}
	dot := cosines(q, c, cos)
	for i := range cos {
		dot(i)
	}
}

// matrixRows returns c's embedding matrix when it has one of width dim
// covering n documents ([MatrixCorpus]); nil otherwise.
func matrixRows(c Corpus, dim, n int) []float32 {
	if m, ok := c.(MatrixCorpus); ok && dim > 0 {
		if r, d := m.Matrix(); d == dim && len(r) >= n*dim {
			return r
		}
	}
	return nil
}

// cosines returns a function that writes into cos[d] the cosine of the
// query with document d of c, once.
func cosines(q Query, c Corpus, cos []float64) func(d int) {
	n := c.Len()
	cosine := cosineWith(q, c)
	return func(d int) {
		if d >= 0 && d < n && cos[d] == 0 {
			cos[d] = cosine(d)
		}
	}
}

// cosineWith returns a function giving the cosine of the query with
// document d of c, at least 1e-12 (0 is "not yet taken"): read from c's
// matrix when it has one, else its dense vector, else its Vector.
func cosineWith(q Query, c Corpus) func(d int) float64 {
	dim := len(q.Vec)
	rows := matrixRows(c, dim, c.Len())
	blocks, inBlocks := blocksOf(c, dim, c.Len())
	dense, _ := c.(DenseCorpus)
	return func(d int) float64 {
		if rows != nil {
			return max(1e-12, Dot(rows[d*dim:(d+1)*dim], q.Vec))
		}
		if inBlocks {
			return max(1e-12, Dot(blocks.row(d), q.Vec))
		}
		if dense != nil {
			if v := dense.Dense(d); len(v) == dim {
				return max(1e-12, Dot(v, q.Vec))
			}
		}
		return max(1e-12, c.Vector(d).Dot(q.Vec))
	}
}

// mix turns BM25 scores lex and cosines cos into relevance: the steps of
// Score.
func mix(q Query, ix *Index, c Corpus, lex, cos []float64) []float64 {
	// lex becomes the mix, and cos, no longer needed, the context's sum.
	rel := lex
	Mix(rel, lex, cos)
	if q.On(Context) {
		rel = inContext(cos, rel, c)
	}
	cues(q, ix, rel, best(rel), nil)
	return rel
}

// ScoreWithGuests is [Score] over two corpora at once: c, indexed by ix,
// and the guests g, indexed by gix — documents brought in from elsewhere
// for this query (units recalled from a long-term tier). BM25 counts the
// two as one collection (lexical.Index.ScoreJoint), and both share one
// normalisation, so their scores compare. (On the development set's long
// replay, scoring the guests with the host's statistics alone lost 0.011
// of recall, with their own 0.024.) A guest's neighbours are other guests
// (g's Near). It returns c's scores, then g's.
func ScoreWithGuests(q Query, ix *Index, c Corpus, gix *Index, g Corpus) []float64 {
	n, m := c.Len(), g.Len()
	if len(q.Terms) == 0 && q.Vec == nil {
		return make([]float64, n+m)
	}
	lex := make([]float64, n+m)
	ix.words.ScoreJoint(q.Terms, gix.words, lex[:n], lex[n:])
	cos := make([]float64, n+m)
	if q.Vec != nil && q.On(Cosine) {
		host, guest := cosines(q, c, cos[:n]), cosines(q, g, cos[n:])
		for d := range n {
			host(d)
		}
		for d := range m {
			guest(d)
		}
	}
	rel := lex
	Mix(rel, lex, cos)
	if q.On(Context) {
		rel = inContext(cos, rel, joint{c, g})
	}
	top := best(rel)
	cues(q, ix, rel[:n], top, nil)
	cues(q, gix, rel[n:], top, nil)
	return rel
}

// best returns the largest of xs, at least 0.
func best(xs []float64) float64 { return largest(xs) }

// joint is two corpora as one, the second's documents numbered after the
// first's; neighbours stay within their own corpus.
type joint struct{ a, b Corpus }

func (j joint) Len() int { return j.a.Len() + j.b.Len() }

func (j joint) Vector(i int) Vector {
	if n := j.a.Len(); i >= n {
		return j.b.Vector(i - n)
	}
	return j.a.Vector(i)
}

func (j joint) Near(i, k int) int {
	n := j.a.Len()
	if i < n {
		return j.a.Near(i, k)
	}
	if d := j.b.Near(i-n, k); d >= 0 {
		return d + n
	}
	return -1
}

// Top returns the indices of the k largest values of xs, largest first,
// ties to the lower index.
func Top(xs []float64, k int) []int { return topK(xs, k) }

// TopSet returns the indices of the k largest values of xs (ties to the
// lower index), in index order: the set Top returns, without its order,
// in O(n) — a quickselect of the k-th largest value over a copy of xs,
// then one pass, both in s's arrays (see [TopScratch]). NaN values count
// as the smallest.
func TopSet(xs []float64, k int, s *TopScratch) []int {
	if k <= 0 || len(xs) == 0 {
		return nil
	}
	if s == nil {
		s = new(TopScratch)
	}
	n := len(xs)
	if cap(s.idx) < n {
		s.idx = make([]int, n, n+n/8)
	}
	idx := s.idx[:n]
	if k >= n {
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	c := 0
	if n >= sampledAbove && n >= 8*k {
		c, s.vals = sampled(xs, k, idx, s.vals)
	}
	if c < k { // no sample, or too few values reached its bound
		for i := range idx {
			idx[i] = i
		}
		c = n
	}
	var out []int
	out, s.vals = pick(xs, idx[:c], k, s.vals)
	return out
}

// TopScratch holds the arrays [TopSet] works in, for a caller that ranks
// again and again: what TopSet returns is one of them, good until s is
// used again. The zero value is ready; nil allocates afresh.
type TopScratch struct {
	vals []float64
	idx  []int
}

// pick returns the k best of xs among idx (in index order, at least k of
// them, holding every index whose value beats the k-th best's), in place
// in idx: the k-th largest value found by a quickselect over scratch, all
// above it, then the ties at it, the first first. NaN counts as the
// smallest value.
func pick(xs []float64, idx []int, k int, scratch []float64) ([]int, []float64) {
	scratch = scratch[:0]
	for _, i := range idx {
		x := xs[i]
		if x != x {
			x = math.Inf(-1)
		}
		scratch = append(scratch, x)
	}
	v := kthLargest(scratch, k)
	above := 0 // values strictly above v: all of them are in
	for _, i := range idx {
		if xs[i] > v {
			above++
		}
	}
	ties, out := k-above, idx[:0] // in place: out never passes the reader
	for _, i := range idx {
		switch x := xs[i]; {
		case x > v:
			out = append(out, i)
		case ties > 0 && (x == v || x != x && v == math.Inf(-1)):
			out = append(out, i)
			ties--
		}
	}
	return out[:len(out):len(out)], scratch
}

// sampledAbove is the length from which TopSet first narrows xs down by a
// sample: below it one selection over all is as fast.
const sampledAbove = 512

// sampled narrows TopSet's search for a k small beside len(xs): the k-th
// largest value of a sample of 64 spread over xs, taken a little lower
// than the share k would give, bounds the k below. It writes into idx the
// indices of the values at or above the bound — about 2k, after one pass
// that compares without branching — and returns how many. Fewer than k
// (NaN among the k best, or an unlucky sample) leave TopSet to select
// over all.
func sampled(xs []float64, k int, idx []int, scratch []float64) (int, []float64) {
	const samples = 64
	n := len(xs)
	scratch = scratch[:0]
	for j := range samples {
		x := xs[j*n/samples]
		if x != x {
			x = math.Inf(-1)
		}
		scratch = append(scratch, x)
	}
	// The sample's rank for twice the share of k, plus two for luck.
	t := kthLargest(scratch, min(samples, 2*k*samples/n+2))
	c := 0
	for i, x := range xs {
		idx[c] = i
		inc := 0
		if x >= t {
			inc = 1
		}
		c += inc
	}
	return c, scratch
}

// kthLargest returns the k-th largest of xs (1 ≤ k ≤ len(xs)), reordering
// xs: a quickselect with the median of three, which sorts what is left if
// its partitions stop shrinking.
func kthLargest(xs []float64, k int) float64 {
	lo, hi, want := 0, len(xs)-1, k-1 // want: its index, largest first
	for rounds := 2 * bits.Len(uint(len(xs))); lo < hi; rounds-- {
		if rounds == 0 {
			slices.SortFunc(xs[lo:hi+1], func(a, b float64) int { return cmp.Compare(b, a) })
			break
		}
		mid := lo + (hi-lo)/2
		if xs[mid] > xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] > xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[mid] > xs[hi] {
			xs[mid], xs[hi] = xs[hi], xs[mid]
		}
		pivot, p := xs[hi], lo
		for i := lo; i < hi; i++ {
			if xs[i] > pivot {
				xs[i], xs[p] = xs[p], xs[i]
				p++
			}
		}
		xs[p], xs[hi] = xs[hi], xs[p]
		switch {
		case p == want:
			return xs[p]
		case p > want:
			hi = p - 1
		default:
			lo = p + 1
		}
	}
	return xs[want]
}

// topK returns the indices of the k largest values of xs, largest first,
// ties to the lower index, in O(n log k). The heap is written out: loads
// run it over every unit, and container/heap's interface calls cost more
// than the comparisons.
func topK(xs []float64, k int) []int {
	if k <= 0 {
		return nil
	}
	// worse reports whether a ranks below b.
	worse := func(a, b int) bool { return xs[a] < xs[b] || (xs[a] == xs[b] && a > b) }
	h := make([]int, 0, min(k, len(xs))) // the worst kept on top
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(h) {
				return
			}
			j := l
			if r := l + 1; r < len(h) && worse(h[r], h[l]) {
				j = r
			}
			if !worse(h[j], h[i]) {
				return
			}
			h[i], h[j] = h[j], h[i]
			i = j
		}
	}
	for i := range xs {
		switch {
		case len(h) < k:
			h = append(h, i)
			for c := len(h) - 1; c > 0; {
				p := (c - 1) / 2
				if !worse(h[c], h[p]) {
					break
				}
				h[c], h[p] = h[p], h[c]
				c = p
			}
		case worse(h[0], i):
			h[0] = i
			down(0)
		}
	}
	out := make([]int, len(h))
	for j := len(out) - 1; j >= 0; j-- {
		out[j] = h[0]
		h[0] = h[len(h)-1]
		h = h[:len(h)-1]
		down(0)
	}
	return out
}

// Mix writes into rel the weighted sum of lex and cos, each first divided by
// its maximum. rel may be lex or cos.
func Mix(rel, lex, cos []float64) {
	var ml, mc float64
	if len(lex) > 0 {
		ml = largest(lex)
	}
	if len(cos) > 0 {
		mc = largest(cos)
	}
	for i := range rel {
		x := 0.0
		if ml > 0 {
			x += LexicalShare * lex[i] / ml
		}
		if mc > 0 {
			x += (1 - LexicalShare) * cos[i] / mc
		}
		rel[i] = x
	}
}

// Dot returns the dot product of a and b over their common length. It is
// every dot product engram takes — relevance's cosines, admission's
// nearest-neighbour probes, the index's scans — so it runs in the
// processor's vector instructions (viterin/vek: AVX2 and FMA where the
// processor has them, plain Go elsewhere), several times the speed of a
// plain loop on a GloVe vector.
func Dot(a, b []float32) float64 {
	n := min(len(a), len(b))
	if n == 0 {
		return 0
	}
	return float64(vek32.Dot(a[:n], b[:n]))
}
