package lexical

import (
	"cmp"
	"math"
	"slices"
)

// BM25 parameters: the usual defaults from Robertson and Zaragoza.
const (
	k1 = 1.2
	b  = 0.75
)

// posting is a document holding a term and the term's frequency there,
// in one 32-bit word: the document in the high bits, the frequency in the
// low tfBits. Postings are most of an index's memory, and 4 bytes a
// posting, not 8, took a memory of 10,000 real turns down by a tenth.
// Postings compare as their documents do.
type posting uint32

const (
	tfBits = 6
	// MaxTF is the largest frequency of a term in a document a posting
	// holds: a term said more often in one document counts MaxTF times,
	// where BM25 has long stopped telling counts apart.
	MaxTF = 1<<tfBits - 1
	// MaxDocs bounds the document ids an index takes: [Index.Add] counts a
	// document at or past it but indexes none of its terms.
	MaxDocs = 1 << (32 - tfBits)
)

func newPosting(doc int32, tf float32) posting {
	return posting(uint32(doc)<<tfBits | uint32(min(tf, MaxTF)))
}

func (p posting) doc() int32         { return int32(uint32(p) >> tfBits) }
func (p posting) tf() float32        { return float32(uint32(p) & MaxTF) }
func (p posting) to(d int32) posting { return posting(uint32(d)<<tfBits | uint32(p)&MaxTF) }

// termScore is one term's BM25 in one document: idf (times the term's
// weight), the term's frequency there, the document's length and the
// collection's mean length. Every score the index gives is a sum of these.
func termScore(idf float64, tf, docLen float32, avg float64) float64 {
	f := float64(tf)
	norm := k1 * (1 - b + b*float64(docLen)/avg)
	return idf * f * (k1 + 1) / (f + norm)
}

// Index maps terms to the documents that hold them.
type Index struct {
	postings map[string][]posting
	docLen   []float32 // by document; 0 for an absent document
	docs     int
	totalLen float64
	// unordered is set once a term's postings may not be in document
	// order (a document added below one already indexed): ScoreDocs then
	// reads postings whole instead of searching them.
	unordered bool
}

// New returns an empty index.
func New() *Index { return &Index{postings: make(map[string][]posting)} }

// Len returns the number of documents.
func (ix *Index) Len() int { return ix.docs }

// Cap returns one more than the largest id indexed: what an array by
// document must cover.
func (ix *Index) Cap() int { return len(ix.docLen) }

// Add indexes document doc with the given terms. doc must not be indexed
// already; ids need not be contiguous, but memory grows with the largest.
// A document at or past [MaxDocs] is counted, its terms not indexed.
func (ix *Index) Add(doc int, terms []string) {
	ix.unordered = ix.unordered || doc < len(ix.docLen)
	for len(ix.docLen) <= doc {
		ix.docLen = append(ix.docLen, 0)
	}
	tf := make(map[string]float32, len(terms))
	for _, t := range terms {
		tf[t]++
	}
	if doc < MaxDocs {
		for t, n := range tf {
			ix.postings[t] = append(ix.postings[t], newPosting(int32(doc), n))
		}
	}
	l := float32(max(1, len(terms)))
	ix.docLen[doc] = l
	ix.docs++
	ix.totalLen += float64(l)
}

// MoveToEnd renumbers the documents as if the n from from on were taken
// out and indexed again after the last, in order: those after them move
// down by n. The ids must be 0 … Len()−1, as a pool numbers its units. It
// costs a pass over the postings, with no term looked up.
func (ix *Index) MoveToEnd(from, n int) {
	d := len(ix.docLen)
	if n <= 0 || from < 0 || from+n > d {
		return
	}
	lo, hi, up := int32(from), int32(from+n), int32(d-from-n)
	for _, ps := range ix.postings {
		first, moved := len(ps), 0 // the first posting past lo, and how many of those move up
		for i := range ps {
			switch doc := ps[i].doc(); {
			case doc < lo:
			case doc < hi:
				ps[i] = ps[i].to(doc + up)
				first, moved = min(first, i), moved+1
			default:
				ps[i] = ps[i].to(doc - int32(n))
				first = min(first, i)
			}
		}
		// In document order, the moved are one run from first on: it
		// goes to the end, and the postings stay in order.
		if !ix.unordered && moved > 0 {
			Rotate(ps[first:], moved)
		}
	}
	Rotate(ix.docLen[from:], n)
}

// Compact drops the documents keep marks false and numbers the rest
// 0, 1, … in their order, as if only they had been indexed, in that order:
// the same postings, lengths and statistics, to the bit. keep is indexed
// by document and covers every id. It costs a pass over the postings, with
// no text read again.
func (ix *Index) Compact(keep []bool) {
	if len(keep) != len(ix.docLen) {
		return
	}
	renum := make([]int32, len(keep))
	n := int32(0)
	for d, k := range keep {
		renum[d] = -1
		if k {
			renum[d] = n
			n++
		}
	}
	for t, ps := range ix.postings {
		kept := ps[:0]
		for _, p := range ps {
			if d := renum[p.doc()]; d >= 0 {
				kept = append(kept, p.to(d))
			}
		}
		if len(kept) == 0 {
			delete(ix.postings, t)
		} else {
			ix.postings[t] = kept
		}
	}
	lens := ix.docLen[:0]
	ix.docs, ix.totalLen = 0, 0
	for d, l := range ix.docLen {
		if keep[d] {
			lens = append(lens, l)
			if l > 0 { // an id never added has no length and did not count
				ix.docs++
				ix.totalLen += float64(l)
			}
		}
	}
	ix.docLen = lens
}

// Rotate moves the first n elements of xs to its end, the rest before
// them in order: what MoveToEnd does to a document's place, for the
// indexes built on this one to do to what they keep by document.
func Rotate[T any](xs []T, n int) {
	moved := append([]T(nil), xs[:n]...)
	copy(xs, xs[n:])
	copy(xs[len(xs)-n:], moved)
}

// EachDoc calls f for every document holding term t.
func (ix *Index) EachDoc(t string, f func(doc int)) {
	for _, p := range ix.postings[t] {
		f(int(p.doc()))
	}
}

// DocFreq returns how many documents hold term t.
func (ix *Index) DocFreq(t string) int { return len(ix.postings[t]) }

// IDF returns BM25's inverse document frequency of t (never negative).
func (ix *Index) IDF(t string) float64 {
	n := float64(len(ix.postings[t]))
	return math.Log(1 + (float64(ix.docs)-n+0.5)/(n+0.5))
}

// Score adds the BM25 score of every document for the weighted query q into
// out, which must have room for every document id. Each query term's
// contribution is multiplied by its weight.
func (ix *Index) Score(q map[string]float64, out []float64) {
	if ix.docs == 0 {
		return
	}
	avg := ix.totalLen / float64(ix.docs)
	for t, w := range q {
		ps := ix.postings[t]
		if len(ps) == 0 || w == 0 {
			continue
		}
		idf := w * ix.IDF(t)
		for _, p := range ps {
			out[p.doc()] += termScore(idf, p.tf(), ix.docLen[p.doc()], avg)
		}
	}
}

// ScoreJoint adds into out the BM25 score, for the weighted query q, of
// every document of ix, and into outOther that of every document of
// other, as one collection: document counts, frequencies and lengths are
// the two indexes' together. out and outOther must have room for every
// document id of ix and of other.
func (ix *Index) ScoreJoint(q map[string]float64, other *Index, out, outOther []float64) {
	docs := float64(ix.docs + other.docs)
	if docs == 0 {
		return
	}
	avg := (ix.totalLen + other.totalLen) / docs
	for t, w := range q {
		a, c := ix.postings[t], other.postings[t]
		n := float64(len(a) + len(c))
		if n == 0 || w == 0 {
			continue
		}
		idf := w * math.Log(1+(docs-n+0.5)/(n+0.5))
		add := func(ps []posting, lens []float32, out []float64) {
			for _, p := range ps {
				out[p.doc()] += termScore(idf, p.tf(), lens[p.doc()], avg)
			}
		}
		add(a, ix.docLen, out)
		add(c, other.docLen, outOther)
	}
}

// ScoreDocs writes into out[i] the BM25 score of document docs[i] for the
// weighted query q, as Score would give it; docs must be in increasing
// order. The shorter of a term's postings and the documents is walked and
// the longer galloped through, so the cost follows len(docs), not the
// collection: what a load over a few candidates of a million units needs.
func (ix *Index) ScoreDocs(q map[string]float64, docs []int, out []float64) {
	clear(out[:len(docs)])
	if ix.docs == 0 || len(docs) == 0 {
		return
	}
	avg := ix.totalLen / float64(ix.docs)
	add := func(i int, p posting, idf float64) {
		out[i] += termScore(idf, p.tf(), ix.docLen[p.doc()], avg)
	}
	for t, w := range q {
		ps := ix.postings[t]
		if len(ps) == 0 || w == 0 {
			continue
		}
		idf := w * ix.IDF(t)
		switch {
		case ix.unordered:
			for _, p := range ps {
				if i, ok := slices.BinarySearch(docs, int(p.doc())); ok {
					add(i, p, idf)
				}
			}
		case len(ps) <= len(docs):
			// Both lists are in document order: walk the shorter, and
			// gallop through the longer from where the last match left it.
			i := 0
			for _, p := range ps {
				d := int(p.doc())
				if i = gallop(len(docs), i, func(j int) bool { return docs[j] < d }); i == len(docs) {
					break
				}
				if docs[i] == d {
					add(i, p, idf)
				}
			}
		default:
			j := 0
			for i, d := range docs {
				if j = gallop(len(ps), j, func(j int) bool { return int(ps[j].doc()) < d }); j == len(ps) {
					break
				}
				if int(ps[j].doc()) == d {
					add(i, ps[j], idf)
				}
			}
		}
	}
}

// gallop returns the first index in [from, n) at which before is false,
// or n, for a before that is true up to some index and false after it. It
// steps 1, 2, 4, … ahead and then bisects the last step, so that walking
// a short sorted list through a long one costs the short one's length
// times the log of the gaps, not the long one's length.
func gallop(n, from int, before func(int) bool) int {
	if from >= n || !before(from) {
		return from
	}
	lo, step := from, 1 // before(lo) holds
	for lo+step < n && before(lo+step) {
		lo += step
		step *= 2
	}
	hi := min(lo+step, n) // before(hi) fails, or hi == n
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if before(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// Best returns up to k documents with the highest BM25 score for the
// weighted query q, counting only its rarest terms: terms are taken from
// the fewest documents up, each whole, while the postings read stay within
// budget (the rarest always). A word most documents hold, such as a
// speaker's name in a transcript, ranks little and would cost a pass over
// the collection; ScoreDocs counts it for the documents found.
// scratch, if it has room for every document, is used and left zeroed.
func (ix *Index) Best(q map[string]float64, k, budget int, scratch []float64) []int {
	if ix.docs == 0 || k <= 0 {
		return nil
	}
	terms := make([]string, 0, len(q))
	for t, w := range q {
		if w > 0 && len(ix.postings[t]) > 0 {
			terms = append(terms, t)
		}
	}
	slices.SortFunc(terms, func(a, c string) int {
		return cmp.Or(cmp.Compare(len(ix.postings[a]), len(ix.postings[c])), cmp.Compare(a, c))
	})
	if len(scratch) < len(ix.docLen) {
		scratch = make([]float64, len(ix.docLen))
	}
	avg := ix.totalLen / float64(ix.docs)
	var touched []int
	read := 0
	for _, t := range terms {
		ps := ix.postings[t]
		if read > 0 && read+len(ps) > budget {
			break
		}
		read += len(ps)
		idf := q[t] * ix.IDF(t)
		for _, p := range ps {
			v := termScore(idf, p.tf(), ix.docLen[p.doc()], avg)
			if !(v > 0) {
				continue // so that a document's sum, once touched, is never 0 again
			}
			if scratch[p.doc()] == 0 {
				touched = append(touched, int(p.doc()))
			}
			scratch[p.doc()] += v
		}
	}
	// The k best, kept as a heap whose root is the worst of them.
	worse := func(a, c int) bool { return scratch[a] < scratch[c] || scratch[a] == scratch[c] && a > c }
	best := make([]int, 0, min(k, len(touched)))
	for _, d := range touched {
		switch {
		case len(best) < k:
			best = append(best, d)
			for i := len(best) - 1; i > 0 && worse(best[i], best[(i-1)/2]); i = (i - 1) / 2 {
				best[i], best[(i-1)/2] = best[(i-1)/2], best[i]
			}
		case worse(best[0], d):
			best[0] = d
			for i := 0; ; {
				j := 2*i + 1
				if j >= len(best) {
					break
				}
				if j+1 < len(best) && worse(best[j+1], best[j]) {
					j++
				}
				if !worse(best[j], best[i]) {
					break
				}
				best[i], best[j] = best[j], best[i]
				i = j
			}
		}
	}
	slices.SortFunc(best, func(a, c int) int { return cmp.Or(cmp.Compare(scratch[c], scratch[a]), cmp.Compare(a, c)) })
	for _, d := range touched {
		scratch[d] = 0
	}
	return best
}
