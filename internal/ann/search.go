package ann

import (
	"cmp"
	"math"
	"slices"

	"github.com/viterin/vek/vek32"
)

// defaultRerank is how many candidates beyond k the int8 scan hands to the
// exact re-rank: the int8 scores are within about 0.002 of the exact ones,
// so few are needed. On real dialogue at 100,000 vectors
// (BenchmarkSearchRealTurns, k = 128) 16 find what 64 found, 0.973 of the
// exact nearest, each of the 48 fewer costing a float32 row read from
// memory.
const defaultRerank = 16

// Vectors returns the float32 vector the caller holds for id, the one it
// passed to [Index.Add] (nil or a wrong length if it has none). Search
// calls it, possibly from several goroutines at once, to score its best
// candidates exactly; the index keeps only int8 copies.
type Vectors func(id int32) []float32

// Search appends to dst[:0] the ids of up to k vectors with the largest
// inner product with q, best first, the smaller id first on a tie, and
// returns it. With vectors nil the scores are the int8 codes' (within
// about 0.002 of the exact ones); otherwise the best candidates are scored
// exactly with the vectors it returns, a candidate it has no vector for
// keeping its int8 score and one whose score is NaN ranking last.
//
// Below the training size (4,096 vectors) every vector is scored, so with
// vectors the answer is exact; above, the lists whose centroids are
// nearest q are scanned. A wrong-length or non-finite q, k ≤ 0 or an empty
// index give no ids. Search allocates nothing but dst's growth once
// warmed up, and is safe for concurrent use with other Searches.
func (ix *Index) Search(q []float32, k int, vectors Vectors, dst []int32) []int32 {
	dst = dst[:0]
	if k <= 0 || len(q) != ix.dim || ix.Len() == 0 || !finite(q) {
		return dst
	}
	k = min(k, ix.Len())
	s, _ := ix.scratch.Get().(*scratch)
	if s == nil {
		s = new(scratch)
	}
	defer ix.scratch.Put(s)

	probed := ix.lists
	if ix.cents != nil {
		probed = ix.probe(q, s)
	}
	var best hits
	if ix.cents == nil && vectors != nil {
		best = ix.exact(q, k, vectors, s)
	} else {
		cands := ix.scan(q, k+ix.rerank, probed, s)
		best = cands
		if vectors != nil {
			best = ix.rescore(q, k, cands, vectors, s)
		} else if len(best) > k {
			// The candidate heap is larger than k: keep its k best.
			s.top = s.top[:0]
			for _, h := range cands {
				s.top = s.top.push(k, h)
			}
			best = s.top
		}
	}
	slices.SortFunc(best, func(a, b hit) int {
		if c := cmp.Compare(b.s, a.s); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	for _, h := range best {
		dst = append(dst, h.id)
	}
	return dst
}

// scratch is one Search's working memory, pooled.
type scratch struct {
	qi     []int16   // the query as int16
	cs     hits      // lists by centroid score
	probed []list    // the lists to scan
	dots   []int32   // one list's int8 dot products
	cands  hits      // candidates by int8 score
	top    hits      // the answer
	dec    []float32 // an int8 code decoded (exact)
}

// probe returns the ix.probes lists whose centroids have the largest dot
// product with q, the largest first.
func (ix *Index) probe(q []float32, s *scratch) []list {
	d := ix.dim
	s.cs = s.cs[:0]
	for c := range len(ix.cents) / d {
		s.cs = s.cs.push(ix.probes, hit{int32(c), vek32.Dot(ix.cents[c*d:(c+1)*d], q)})
	}
	// Nearest list first: the heap's floor then rises early, and fewer
	// of the later lists' entries enter it.
	slices.SortFunc(s.cs, func(a, b hit) int { return cmp.Compare(b.s, a.s) })
	s.probed = s.probed[:0]
	for _, h := range s.cs {
		s.probed = append(s.probed, ix.lists[h.id])
	}
	return s.probed
}

// scan returns the n best entries of the lists by int8 score.
func (ix *Index) scan(q []float32, n int, lists []list, s *scratch) hits {
	s.qi = slices.Grow(s.qi[:0], ix.dim)[:ix.dim]
	f := encodeQuery(s.qi, q)
	inv := 1 / f
	s.cands = s.cands[:0]
	floor := float32(math.Inf(-1)) // the worst score in a full heap
	for _, ls := range lists {
		s.dots = slices.Grow(s.dots[:0], len(ls.ids))[:len(ls.ids)]
		dots(s.qi, ls.codes, ix.dim, s.dots)
		scales := ls.scales[:len(s.dots)]
		for i, x := range s.dots {
			sc := float32(x) * scales[i] * inv
			if sc < floor {
				continue
			}
			if h := (hit{ls.ids[i], sc}); len(s.cands) < n || s.cands.worse(0, h) {
				if s.cands = s.cands.push(n, h); len(s.cands) == n {
					floor = s.cands[0].s
				}
			}
		}
	}
	return s.cands
}

// rescore returns the k best candidates by exact score.
func (ix *Index) rescore(q []float32, k int, cands hits, vectors Vectors, s *scratch) hits {
	s.top = s.top[:0]
	for _, h := range cands {
		if v := vectors(h.id); len(v) == len(q) {
			h.s = dot(q, v)
		}
		s.top = s.top.push(k, h)
	}
	return s.top
}

// exact returns the k best of all entries by exact score; an entry the
// caller has no vector for is scored by its int8 code, as rescore keeps it.
func (ix *Index) exact(q []float32, k int, vectors Vectors, s *scratch) hits {
	s.top = s.top[:0]
	d := ix.dim
	for _, ls := range ix.lists {
		for i, id := range ls.ids {
			v := vectors(id)
			if len(v) != len(q) {
				s.dec = slices.Grow(s.dec[:0], d)[:d]
				decode(s.dec, ls.codes[i*d:(i+1)*d], ls.scales[i])
				v = s.dec
			}
			s.top = s.top.push(k, hit{id, dot(q, v)})
		}
	}
	return s.top
}

// dot is the exact score: vek32.Dot, a NaN (from a caller's vector) taken
// as the worst score.
func dot(q, v []float32) float32 {
	s := vek32.Dot(q, v)
	if s != s {
		return float32(math.Inf(-1))
	}
	return s
}

// hit is an id and its score.
type hit struct {
	id int32
	s  float32
}

// hits is a bounded min-heap whose root is its worst hit: lowest score,
// then largest id.
type hits []hit

func (h hits) worse(i int, x hit) bool {
	return h[i].s < x.s || h[i].s == x.s && h[i].id > x.id
}

// push adds x if the heap holds fewer than n hits or x beats the worst,
// which it then replaces.
func (h hits) push(n int, x hit) hits {
	if len(h) < n {
		h = append(h, x)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if !h.worse(i, h[p]) {
				break
			}
			h[i], h[p] = h[p], h[i]
			i = p
		}
		return h
	}
	if !h.worse(0, x) {
		return h
	}
	h[0] = x
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && h.worse(l, h[m]) {
			m = l
		}
		if r < len(h) && h.worse(r, h[m]) {
			m = r
		}
		if m == i {
			return h
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
