package tokens

import "math"

// Byte-pair encoding merges, again and again, the adjacent pair of parts
// whose concatenation has the lowest rank, the leftmost on a tie, until no
// adjacent pair is a token; a piece costs as many tokens as parts remain.
// tiktoken scans all pairs for every merge, quadratic in the piece's
// length; that is quickest for short pieces, and a heap of candidate pairs
// (n log n) gives the same merges, in the same order, for long ones.

// heapFrom is the piece length from which merges are ordered by a heap.
const heapFrom = 64

// pieceTokens returns the number of tokens in one pre-tokenizer piece.
func (c *Counter) pieceTokens(p string) int {
	if len(p) <= 1 {
		return len(p)
	}
	if _, ok := c.ranks[p]; ok {
		return 1
	}
	if len(p) >= heapFrom {
		return c.mergeHeap(p)
	}
	return c.mergeScan(p)
}

// rank returns the rank of p, or math.MaxInt if p is no token. Two-byte
// parts, which every merge starts from, are looked up in a table: most of
// a long piece's lookups cost no hashing.
func (c *Counter) rank(p string) int {
	if len(p) == 2 && c.pairs != nil {
		if r := c.pairs[int(p[0])<<8|int(p[1])]; r != noPair {
			return int(r)
		}
		return math.MaxInt
	}
	if r, ok := c.ranks[p]; ok {
		return r
	}
	return math.MaxInt
}

// noPair marks a two-byte sequence that is no token in Counter.pairs.
const noPair = -1

// pairRanks returns the table Counter.pairs: the ranks of the two-byte
// tokens of ranks. A rank too large for the table leaves it nil.
func pairRanks(ranks map[string]int) []int32 {
	t := make([]int32, 1<<16)
	for i := range t {
		t[i] = noPair
	}
	for p, r := range ranks {
		if len(p) == 2 {
			if r < 0 || r > math.MaxInt32 {
				return nil
			}
			t[int(p[0])<<8|int(p[1])] = int32(r)
		}
	}
	return t
}

// mergeScan is tiktoken's merge loop, for a piece of fewer than heapFrom
// bytes.
func (c *Counter) mergeScan(p string) int {
	var starts [heapFrom + 1]int
	var ranks [heapFrom + 1]int
	n := len(p) + 1 // parts are [starts[k], starts[k+1])
	for k := range n {
		starts[k] = k
	}
	for k := 0; k+2 < n; k++ {
		ranks[k] = c.rank(p[k : k+2])
	}
	ranks[n-2] = math.MaxInt
	pairRank := func(k int) int {
		if k+2 < n {
			return c.rank(p[starts[k]:starts[k+2]])
		}
		return math.MaxInt
	}
	for n > 2 {
		best, at := math.MaxInt, -1
		for k := 0; k+1 < n-1; k++ {
			if ranks[k] < best {
				best, at = ranks[k], k
			}
		}
		if at < 0 {
			break
		}
		// Part at absorbs part at+1.
		copy(starts[at+1:n-1], starts[at+2:n])
		copy(ranks[at+1:n-1], ranks[at+2:n])
		n--
		ranks[at] = pairRank(at)
		if at > 0 {
			ranks[at-1] = pairRank(at - 1)
		}
	}
	return n - 1
}

// pair is a candidate merge of the part starting at pos with its right
// neighbour; it is stale once either part has changed.
type pair struct {
	rank, pos int32
}

// mergeHeap gives the same merges as mergeScan in n log n time. Parts are
// a linked list over their start offsets.
func (c *Counter) mergeHeap(p string) int {
	n := int32(len(p))
	next := make([]int32, n) // start of the following part, n after the last
	prev := make([]int32, n) // start of the preceding part, -1 before the first
	for k := range n {
		next[k], prev[k] = k+1, k-1
	}
	// pairEnd is where the merge of the part at k with its right
	// neighbour would end, or -1 if k is the last part.
	pairEnd := func(k int32) int32 {
		if nk := next[k]; nk < n {
			return next[nk]
		}
		return -1
	}
	h := make(pairHeap, 0, n)
	for k := int32(0); k+1 < n; k++ {
		if r := c.rank(p[k : k+2]); r != math.MaxInt {
			h = append(h, pair{int32(r), k})
		}
	}
	h.init()
	push := func(k int32) {
		if end := pairEnd(k); end >= 0 {
			if r := c.rank(p[k:end]); r != math.MaxInt {
				h.push(pair{int32(r), k})
			}
		}
	}
	parts := int(n)
	for len(h) > 0 {
		top := h.pop()
		k := top.pos
		if prev[k] == -2 {
			continue // k was merged into its left neighbour
		}
		end := pairEnd(k)
		if end < 0 || int32(c.rank(p[k:end])) != top.rank {
			continue // a neighbour changed since this pair was pushed
		}
		prev[next[k]] = -2
		next[k] = end
		if end < n {
			prev[end] = k
		}
		parts--
		push(k)
		if pk := prev[k]; pk >= 0 {
			push(pk)
		}
	}
	return parts
}

// pairHeap is a min-heap of pairs by rank, then position.
type pairHeap []pair

func (h pairHeap) less(a, b int) bool {
	return h[a].rank < h[b].rank || h[a].rank == h[b].rank && h[a].pos < h[b].pos
}

func (h pairHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *pairHeap) push(x pair) {
	*h = append(*h, x)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s.less(i, parent) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

func (h *pairHeap) pop() pair {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	*h = s[:last]
	h.down(0)
	return top
}

func (h pairHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
