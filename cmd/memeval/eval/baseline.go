package eval

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/engram-go/engram/cmd/memeval/dataset"
	"github.com/engram-go/engram/internal/lexical"
	"github.com/engram-go/engram/internal/text"
	"github.com/engram-go/engram/tokens"
	"github.com/tmc/langchaingo/schema"
)

// lines is the store both baselines share: saved turns rendered as history
// lines, each with its exact token count.
type lines struct {
	mu     sync.Mutex
	budget int
	text   []string // "Human: …\n"
	raw    []string // the turn as saved
	cost   []int
}

func (l *lines) GetMemoryKey(context.Context) string      { return "history" }
func (l *lines) MemoryVariables(context.Context) []string { return []string{"history"} }

func (l *lines) Clear(context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.text, l.raw, l.cost = nil, nil, nil
	return nil
}

func (l *lines) add(prefix, s string) int {
	line := prefix + ": " + s + "\n"
	l.text = append(l.text, line)
	l.raw = append(l.raw, s)
	l.cost = append(l.cost, tokens.Default().Count(line))
	return len(l.text) - 1
}

func stringValue(m map[string]any, key string) (string, error) {
	v, ok := m[key].(string)
	if !ok {
		return "", fmt.Errorf("eval: key %q missing or not a string", key)
	}
	return v, nil
}

// pair reads the human and AI texts the replay saves.
func pair(in, out map[string]any) (human, ai string, err error) {
	if human, err = stringValue(in, "input"); err != nil {
		return "", "", err
	}
	if ai, err = stringValue(out, "output"); err != nil {
		return "", "", err
	}
	return human, ai, nil
}

// pack renders the given lines, best first, while they fit the budget, in
// chronological order.
func (l *lines) pack(ranked []int) string {
	var chosen []int
	used := 0
	for _, i := range ranked {
		if used+l.cost[i] <= l.budget {
			chosen = append(chosen, i)
			used += l.cost[i]
		}
	}
	sort.Ints(chosen)
	var sb strings.Builder
	for _, i := range chosen {
		sb.WriteString(l.text[i])
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// bm25 is the retrieval baseline: it ranks saved turns by BM25 against the
// query and packs the best into the budget.
type bm25 struct {
	lines
	index *lexical.Index
}

func newBM25(budget int) *bm25 { return &bm25{lines: lines{budget: budget}, index: lexical.New()} }

func (m *bm25) SaveContext(_ context.Context, in, out map[string]any) error {
	return m.save(in, out, nil)
}

// save indexes the pair's non-empty turns as lines, calling each (if set)
// with every turn's text under the same lock.
func (m *bm25) save(in, out map[string]any, each func(text string)) error {
	h, a, err := pair(in, out)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range [][2]string{{"Human", h}, {"AI", a}} {
		if t[1] == "" {
			continue
		}
		m.index.Add(m.add(t[0], t[1]), text.Terms(t[1]))
		if each != nil {
			each(t[1])
		}
	}
	return nil
}

func (m *bm25) LoadMemoryVariables(_ context.Context, in map[string]any) (map[string]any, error) {
	q, _ := in["input"].(string)
	m.mu.Lock()
	defer m.mu.Unlock()
	score := make([]float64, len(m.text))
	m.index.Score(queryTerms(q), score)
	return map[string]any{"history": m.packBest(score)}, nil
}

// queryTerms returns q's stemmed content words, each of weight 1.
func queryTerms(q string) map[string]float64 {
	terms := make(map[string]float64)
	for _, t := range text.Terms(q) {
		terms[t] = 1
	}
	return terms
}

// packBest packs the lines best score first; ties (and lines with no
// match) go newest first, as a buffer would.
//
// Only the lines that match are sorted; the rest follow newest first, as
// the sort would leave them: at 100,000 lines a sort of all of them was
// most of the load.
func (l *lines) packBest(score []float64) string {
	order := make([]int, 0, len(score))
	for i, x := range score {
		if x > 0 {
			order = append(order, i)
		}
	}
	sort.Slice(order, func(a, b int) bool {
		if score[order[a]] != score[order[b]] {
			return score[order[a]] > score[order[b]]
		}
		return order[a] > order[b]
	})
	for i := len(score) - 1; i >= 0; i-- {
		if !(score[i] > 0) {
			order = append(order, i)
		}
	}
	return l.pack(order)
}

// oracle is handed each question's evidence: it returns the evidence turns,
// then fills the budget newest first. No memory can beat it.
type oracle struct {
	lines
	evidence map[string][]string // question → evidence texts
}

func newOracle(budget int, s *dataset.Sample) *oracle {
	o := &oracle{lines: lines{budget: budget}, evidence: make(map[string][]string)}
	if s == nil {
		return o
	}
	turns := make(map[string]string)
	for _, t := range s.Turns() {
		turns[t.DiaID] = t.Text
	}
	for _, qa := range s.QA {
		for _, id := range qa.Evidence {
			if t, ok := turns[id]; ok {
				o.evidence[qa.Question] = append(o.evidence[qa.Question], t)
			}
		}
	}
	return o
}

func (o *oracle) SaveContext(_ context.Context, in, out map[string]any) error {
	h, a, err := pair(in, out)
	if err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.add("Human", h)
	if a != "" {
		o.add("AI", a)
	}
	return nil
}

func (o *oracle) LoadMemoryVariables(_ context.Context, in map[string]any) (map[string]any, error) {
	q, _ := in["input"].(string)
	o.mu.Lock()
	defer o.mu.Unlock()
	var first, rest []int
	for i := len(o.raw) - 1; i >= 0; i-- {
		hit := false
		for _, ev := range o.evidence[q] {
			if strings.Contains(o.raw[i], ev) {
				hit = true
			}
		}
		if hit {
			first = append(first, i)
		} else {
			rest = append(rest, i)
		}
	}
	return map[string]any{"history": o.pack(append(first, rest...))}, nil
}

var (
	_ schema.Memory = (*bm25)(nil)
	_ schema.Memory = (*oracle)(nil)
)
