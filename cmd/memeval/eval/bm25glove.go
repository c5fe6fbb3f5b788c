package eval

import (
	"context"
	"math"

	"github.com/engram-go/engram/internal/glove"
	"github.com/engram-go/engram/internal/lexical"
	"github.com/engram-go/engram/internal/text"
	"github.com/tmc/langchaingo/schema"
)

// bm25GloVe is the stronger retrieval anchor: stemmed BM25 and the cosine
// of idf-weighted mean GloVe vectors, each divided by its maximum, half
// and half, best single turns packed into the budget. It is the method the
// development set's README measures, written here from its description.
type bm25GloVe struct {
	bm25
	words  [][]string           // by line: its GloVe tokens, stop words out
	df     map[string]int       // GloVe token → lines holding it
	vecs   [][glove.Dim]float64 // by line, for the df of vecsAt lines
	vecsAt int
}

func newBM25GloVe(budget int) *bm25GloVe {
	return &bm25GloVe{bm25: bm25{lines: lines{budget: budget}, index: lexical.New()}, df: make(map[string]int)}
}

func (m *bm25GloVe) SaveContext(_ context.Context, in, out map[string]any) error {
	return m.save(in, out, m.addWords)
}

// addWords keeps a line's GloVe tokens, stop words out, and counts them.
func (m *bm25GloVe) addWords(s string) {
	var ws []string
	seen := make(map[string]bool)
	for _, w := range glove.Words(s) {
		if text.IsStop(w) {
			continue
		}
		ws = append(ws, w)
		if !seen[w] {
			seen[w] = true
			m.df[w]++
		}
	}
	m.words = append(m.words, ws)
}

// idf is the inverse document frequency of a GloVe token among the lines.
func (m *bm25GloVe) idf(w string) float64 {
	return math.Log(1 + float64(len(m.words))/(1+float64(m.df[w])))
}

// embed returns the idf-weighted mean of ws's vectors, unit length.
func (m *bm25GloVe) embed(ws []string) [glove.Dim]float64 {
	var v [glove.Dim]float64
	for _, w := range ws {
		g, ok := glove.Vector(w)
		if !ok {
			continue
		}
		x := m.idf(w)
		for i, c := range g {
			v[i] += x * float64(c)
		}
	}
	var n float64
	for _, c := range v {
		n += c * c
	}
	if n > 0 {
		n = 1 / math.Sqrt(n)
		for i := range v {
			v[i] *= n
		}
	}
	return v
}

func (m *bm25GloVe) LoadMemoryVariables(_ context.Context, in map[string]any) (map[string]any, error) {
	q, _ := in["input"].(string)
	m.mu.Lock()
	defer m.mu.Unlock()
	n := len(m.text)
	if m.vecsAt != n { // idf moved: embed the lines again
		m.vecs = m.vecs[:0]
		for _, ws := range m.words {
			m.vecs = append(m.vecs, m.embed(ws))
		}
		m.vecsAt = n
	}
	lex := make([]float64, n)
	m.index.Score(queryTerms(q), lex)
	var qws []string
	for _, w := range glove.Words(q) {
		if !text.IsStop(w) {
			qws = append(qws, w)
		}
	}
	qv := m.embed(qws)
	cos := make([]float64, n)
	for i := range cos {
		var d float64
		for k, c := range m.vecs[i] {
			d += c * qv[k]
		}
		cos[i] = max(0, d)
	}
	score := make([]float64, n)
	ml, mc := maxOf(lex), maxOf(cos)
	for i := range score {
		if ml > 0 {
			score[i] += 0.5 * lex[i] / ml
		}
		if mc > 0 {
			score[i] += 0.5 * cos[i] / mc
		}
	}
	return map[string]any{"history": m.packBest(score)}, nil
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

var _ schema.Memory = (*bm25GloVe)(nil)
