package relevance

import (
	"container/heap"
	"slices"

	"github.com/engram-go/engram/internal/lexical"
	"github.com/engram-go/engram/internal/text"
)

// Tuning of the mix; see Score.
const (
	// nameGateShare is how much of a document's relevance depends on it naming
	// the people and things the query names.
	nameGateShare = 0.5
	// expansionWeight is the weight of names found in the best documents when
	// they are added to the query, for questions that need two hops.
	expansionWeight = 0.5
	// expansionDocs is how many of the best documents lend their names.
	expansionDocs = 3
	// answerCandidates is how many of the best documents are checked for
	// the kind of answer the question wants.
	answerCandidates = 384
	// expansionMaxDF is the largest share of documents a lent name may be
	// in: speakers' names, in every other turn, say nothing.
	expansionMaxDF = 0.05
	// noveltyBoost is how much more relevant a fully novel document is
	// (see Index.Novelty): of two documents that match a question equally,
	// the one that brought new words when it came is likelier to state a
	// fact than to repeat small talk.
	noveltyBoost = 3.0
)

// LexicalShare is the weight of BM25 in the mix; cosine gets the rest.
var LexicalShare = knob("lex", 0.5)

// Query is a query analysed once for scoring many documents.
type Query struct {
	Text  string
	Terms map[string]float64 // stemmed content word → weight
	Names []string           // stemmed names the query mentions
	Vec   []float32          // unit-normalised embedding; nil for none
}

// NewQuery analyses text; vec is its embedding (may be nil).
func NewQuery(s string, vec []float32) Query {
	q := Query{Text: s, Terms: make(map[string]float64), Vec: vec, Names: queryNames(s)}
	for _, t := range text.Terms(s) {
		q.Terms[t] = 1
	}
	return q
}

// Corpus is the documents a query is scored against, numbered from 0 as in
// the lexical index.
type Corpus interface {
	// Len returns the number of documents.
	Len() int
	// Vector returns document i's embedding.
	Vector(i int) Vector
	// Names returns the stemmed names document i mentions (see [Names]).
	Names(i int) []string
	// Near returns the document k places after document i in the
	// conversation (before it for k < 0), or −1 if there is none.
	Near(i, k int) int
}

// Score returns the relevance of every document of c, never negative: up
// to 1 after steps 1–3, up to (1 + answerBoost)(1 + noveltyBoost) after 4:
//
//  1. BM25 and cosine similarity, each divided by its maximum, mixed by
//     LexicalShare;
//  2. times a name gate: a query that names someone prefers documents that
//     name them too, whatever else they share;
//  3. then the names of the best documents that the query does not hold are
//     added to it (weighted by expansionWeight) and 1–2 run again, so that "Dana's
//     sister's job" finds "my sister Priya" and then "Priya became a nurse";
//  4. times 1 + answerBoost × how well a document holds the kind of answer
//     the question asks for (a date for "when", a job title for "what does
//     she do"), and 1 + noveltyBoost × its novelty (see [Index.Novelty]).
func Score(q Query, ix *Index, c Corpus) []float64 {
	// Every document gets its cosine: a third of the turns a question
	// needs share no word with it.
	return score(q, ix, c, func(lex []float64, dot func(int)) {
		for i := range lex {
			dot(i)
		}
	})
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
	})
}

// score runs BM25 over words and concepts, lets compare choose the
// documents whose cosine with the query is computed (by calling dot), and
// mixes the two.
func score(q Query, ix *Index, c Corpus, compare func(lex []float64, dot func(doc int))) []float64 {
	n := c.Len()
	if len(q.Terms) == 0 && q.Vec == nil {
		return make([]float64, n)
	}
	lex := make([]float64, n)
	ix.score(q.Terms, lex)
	cos := make([]float64, n)
	if q.Vec != nil && On(Cosine) {
		compare(lex, func(d int) {
			if d >= 0 && d < n && cos[d] == 0 {
				cos[d] = max(1e-12, c.Vector(d).Dot(q.Vec))
			}
		})
	}
	return mix(q, ix, c, lex, cos)
}

// mix turns BM25 scores lex (which it reuses) and cosines cos into
// relevance: the steps of Score.
func mix(q Query, ix *Index, c Corpus, lex, cos []float64) []float64 {
	n := len(lex)
	rel := make([]float64, n)
	var gate []float64
	if On(NameGate) {
		gate = nameGate(q.Names, ix.words, n)
	}
	Mix(rel, lex, cos)
	applyGate(rel, gate)

	if On(Expansion) {
		if extra := expansion(q, ix.words, c, rel); len(extra) > 0 {
			clear(lex)
			ix.score(extra, lex)
			Mix(rel, lex, cos)
			applyGate(rel, gate)
		}
	}
	if a := expectedAnswer(q.Text); !a.zero() && answerBoost > 0 && On(AnswerTyping) {
		// Only the best candidates can be selected; the rest keep their score.
		for _, d := range topK(rel, answerCandidates) {
			rel[d] *= 1 + answerBoost*a.match(ix, c, q, d)
		}
	}
	if noveltyBoost > 0 && On(Novelty) {
		for d := range rel {
			if d < len(ix.novelty) {
				rel[d] *= 1 + noveltyBoost*ix.novelty[d]
			}
		}
	}
	if On(Context) {
		rel = inContext(rel, c)
	}
	cues(q, ix, rel)
	return rel
}

// Top returns the indices of the k largest values of xs, largest first,
// ties to the lower index.
func Top(xs []float64, k int) []int { return topK(xs, k) }

// nameGate returns, per document, the factor its relevance is multiplied
// by: 1 if it holds every name of the query, 1 − nameGateShare if none; nil when
// the query names nobody.
func nameGate(names []string, ix *lexical.Index, n int) []float64 {
	if len(names) == 0 || nameGateShare == 0 {
		return nil
	}
	hits := make([]float64, n)
	for _, name := range names {
		ix.EachDoc(name, func(d int) { hits[d]++ })
	}
	for i, h := range hits {
		hits[i] = 1 - nameGateShare + nameGateShare*h/float64(len(names))
	}
	return hits
}

func applyGate(rel, gate []float64) {
	if gate == nil {
		return
	}
	for i := range rel {
		rel[i] *= gate[i]
	}
}

// expansion returns the query's terms plus the rare names of the best
// documents, or nil if there are none to add.
func expansion(q Query, ix *lexical.Index, c Corpus, rel []float64) map[string]float64 {
	if expansionWeight == 0 || len(rel) == 0 {
		return nil
	}
	top := topK(rel, expansionDocs)
	maxDF := max(1, int(expansionMaxDF*float64(ix.Len())))
	var extra map[string]float64
	for _, d := range top {
		if rel[d] == 0 {
			break
		}
		for _, name := range c.Names(d) {
			if _, ok := q.Terms[name]; ok || ix.DocFreq(name) > maxDF {
				continue
			}
			if extra == nil {
				extra = make(map[string]float64, len(q.Terms)+4)
				for t, w := range q.Terms {
					extra[t] = w
				}
			}
			extra[name] = expansionWeight
		}
	}
	return extra
}

// contextShare is the share of the next unit's relevance a unit inherits: in a
// conversation the next turn is usually the reply, and a reply names in other
// words what it answers ("I jumped out of a plane" — "the skydiving!").
const contextShare = 0.3

// Smooth adds to each rel[i] contextShare times rel[next(i)], where next returns
// the index of the unit that replies to i, or −1.
func Smooth(rel []float64, next func(i int) int) {
	if contextShare == 0 || !On(Reply) {
		return
	}
	orig := slices.Clone(rel)
	for i := range rel {
		if j := next(i); j >= 0 && j < len(orig) {
			rel[i] += contextShare * orig[j]
		}
	}
}

// topK returns the indices of the k largest values of xs, largest first,
// ties to the lower index, in O(n log k).
func topK(xs []float64, k int) []int {
	if k <= 0 {
		return nil
	}
	less := func(a, b int) bool { return xs[a] < xs[b] || (xs[a] == xs[b] && a > b) }
	h := &minHeap{less: less}
	for i := range xs {
		switch {
		case len(h.idx) < k:
			heap.Push(h, i)
		case less(h.idx[0], i):
			h.idx[0] = i
			heap.Fix(h, 0)
		}
	}
	out := make([]int, len(h.idx))
	for j := len(out) - 1; j >= 0; j-- {
		out[j] = heap.Pop(h).(int)
	}
	return out
}

// minHeap holds indices, smallest by less on top.
type minHeap struct {
	idx  []int
	less func(a, b int) bool
}

func (h *minHeap) Len() int           { return len(h.idx) }
func (h *minHeap) Less(i, j int) bool { return h.less(h.idx[i], h.idx[j]) }
func (h *minHeap) Swap(i, j int)      { h.idx[i], h.idx[j] = h.idx[j], h.idx[i] }
func (h *minHeap) Push(x any)         { h.idx = append(h.idx, x.(int)) }
func (h *minHeap) Pop() any {
	x := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return x
}

// Mix writes into rel the weighted sum of lex and cos, each first divided by
// its maximum.
func Mix(rel, lex, cos []float64) {
	var ml, mc float64
	if len(lex) > 0 {
		ml = slices.Max(lex)
	}
	if len(cos) > 0 {
		mc = slices.Max(cos)
	}
	for i := range rel {
		rel[i] = 0
		if ml > 0 {
			rel[i] += LexicalShare * lex[i] / ml
		}
		if mc > 0 {
			rel[i] += (1 - LexicalShare) * cos[i] / mc
		}
	}
}

// Dot returns the dot product of a and b over their common length.
func Dot(a, b []float32) float64 {
	n := min(len(a), len(b))
	a, b = a[:n], b[:n]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= n; i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return float64(s0 + s1 + s2 + s3)
}
