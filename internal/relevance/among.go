package relevance

import (
	"slices"
	"sync"
)

// A load over a large collection cannot read every document: at a million
// turns, BM25 over the postings and one product a row took over 100 ms.
// Such a load gathers first — the documents nearest the query by vector
// (an approximate index's), the best by the query's rarer words
// ([Index.Best]), whatever else the caller needs — and [ScoreAmong] then
// gives those documents, and the turns around them, the relevance [Score]
// would, with the maxima taken over them instead of the collection. The
// gathered hold the best document by either measure, so the scale is the
// same but for a document that neither found.

// Best returns up to k documents with the highest BM25 score for q's
// words, reading the postings of its rarest words only, within budget
// postings (lexical.Index.Best).
func (ix *Index) Best(q Query, k, budget int) []int {
	s := bestScratch.Get().(*[]float64)
	defer bestScratch.Put(s)
	if n := ix.words.Cap(); len(*s) < n {
		*s = make([]float64, n+n/4)
	}
	return ix.words.Best(q.Terms, k, budget, *s)
}

// bestScratch holds the arrays Best accumulates in, one by document, left
// zeroed: a load at a million units would otherwise allocate 8 MB.
var bestScratch = sync.Pool{New: func() any { return new([]float64) }}

// ScoreAmong writes into out the relevance of the documents seeds and the
// turns within the context kernel's reach of them, and returns those
// documents, in increasing order; out has room for every document of c and
// is written only there. Each is scored as [Score] scores it, with BM25's
// and the cosine's maxima, and the best document's relevance, taken over
// the returned documents; a neighbour's own neighbours beyond the returned
// ones do not add to its context. The cost follows len(seeds), not c.
func ScoreAmong(q Query, ix *Index, c Corpus, seeds []int, out []float64) []int {
	n := c.Len()
	docs := make([]int, 0, len(seeds)*(2*contextReach+1))
	for _, d := range seeds {
		if d < 0 || d >= n {
			continue
		}
		docs = append(docs, d)
		for k := 1; k <= contextReach; k++ {
			if j := c.Near(d, k); j >= 0 {
				docs = append(docs, j)
			}
			if j := c.Near(d, -k); j >= 0 {
				docs = append(docs, j)
			}
		}
	}
	slices.Sort(docs)
	docs = slices.Compact(docs)
	if len(docs) == 0 || len(q.Terms) == 0 && q.Vec == nil {
		for _, d := range docs {
			out[d] = 0
		}
		return docs
	}
	lex, cos := make([]float64, len(docs)), make([]float64, len(docs))
	ix.words.ScoreDocs(q.Terms, docs, lex)
	if q.Vec != nil && q.On(Cosine) {
		cosine := cosineWith(q, c)
		for i, d := range docs {
			cos[i] = cosine(d)
		}
	}
	rel := lex
	Mix(rel, lex, cos)
	if q.On(Context) {
		rel = inContext(cos, rel, among{c: c, docs: docs})
	}
	cues(q, ix, rel, best(rel), docs)
	for i, d := range docs {
		out[d] = rel[i]
	}
	return docs
}

// among is the documents docs of c, numbered by their place in docs, as a
// Corpus: a document's neighbours are those of c that docs holds.
type among struct {
	c    Corpus
	docs []int
}

func (a among) Len() int            { return len(a.docs) }
func (a among) Vector(i int) Vector { return a.c.Vector(a.docs[i]) }
func (a among) Near(i, k int) int {
	j := a.c.Near(a.docs[i], k)
	if j < 0 {
		return -1
	}
	// Mostly a turn's neighbours were gathered with it, k places on.
	if p := i + k; p >= 0 && p < len(a.docs) && a.docs[p] == j {
		return p
	}
	if p, ok := slices.BinarySearch(a.docs, j); ok {
		return p
	}
	return -1
}
