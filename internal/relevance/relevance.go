package relevance

import (
	"slices"

	"github.com/engram-go/engram/internal/lexical"
	"github.com/engram-go/engram/internal/text"
)

// LexicalShare is the weight of BM25 in the mix; cosine gets the rest.
var LexicalShare = 0.5

// Query is a query analysed once for scoring many documents.
type Query struct {
	Text  string
	Terms map[string]float64 // stemmed content word → weight
	Vec   []float32          // unit-normalised embedding; nil for none
}

// NewQuery analyses text; vec is its embedding (may be nil).
func NewQuery(s string, vec []float32) Query {
	q := Query{Text: s, Terms: make(map[string]float64), Vec: vec}
	for _, t := range text.Terms(s) {
		q.Terms[t] = 1
	}
	return q
}

// Score returns the relevance in [0, 1] of documents 0…n−1, indexed in ix
// and with embeddings vec(i) (a different dimension counts as no match).
func Score(q Query, ix *lexical.Index, n int, vec func(i int) Vector) []float64 {
	rel := make([]float64, n)
	if len(q.Terms) == 0 && q.Vec == nil {
		return rel
	}
	lex := make([]float64, n)
	ix.Score(q.Terms, lex)
	cos := make([]float64, n)
	if q.Vec != nil {
		for i := range n {
			cos[i] = max(0, vec(i).Dot(q.Vec))
		}
	}
	Mix(rel, lex, cos)
	return rel
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
