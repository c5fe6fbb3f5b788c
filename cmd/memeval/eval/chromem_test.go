package eval

import (
	"context"
	"fmt"
	"strconv"

	"github.com/engram-go/engram/embed"
	"github.com/philippgille/chromem-go"
	"github.com/tmc/langchaingo/schema"
)

// chromemTop is how many of the nearest turns a load of chromemMemory asks
// chromem-go for: more than a budget of 1,024 tokens holds.
const chromemTop = 128

// chromemMemory is chromem-go used raw, as the vector store engram is
// built on: each turn a document that engram's offline GloVe embedder
// embeds, a load chromem-go's exhaustive query for the turns nearest the
// question by cosine, packed best first into the budget. It is the scale
// benchmark's second anchor, beside BM25 over an inverted index.
type chromemMemory struct {
	lines
	col *chromem.Collection
}

var _ schema.Memory = (*chromemMemory)(nil)

func newChromem(budget int) (*chromemMemory, error) {
	e, err := embed.New()
	if err != nil {
		return nil, err
	}
	col, err := chromem.NewDB().CreateCollection("turns", nil, e.EmbedQuery)
	if err != nil {
		return nil, err
	}
	return &chromemMemory{lines: lines{budget: budget}, col: col}, nil
}

func (m *chromemMemory) SaveContext(ctx context.Context, in, out map[string]any) error {
	h, a, err := pair(in, out)
	if err != nil {
		return err
	}
	for _, t := range [][2]string{{"Human", h}, {"AI", a}} {
		if t[1] == "" {
			continue
		}
		m.mu.Lock()
		id := m.add(t[0], t[1])
		m.mu.Unlock()
		if err := m.col.AddDocument(ctx, chromem.Document{ID: strconv.Itoa(id), Content: t[1]}); err != nil {
			return fmt.Errorf("eval: chromem: %w", err)
		}
	}
	return nil
}

func (m *chromemMemory) LoadMemoryVariables(ctx context.Context, in map[string]any) (map[string]any, error) {
	q, err := stringValue(in, "input")
	if err != nil {
		return nil, err
	}
	n := min(m.col.Count(), chromemTop)
	if n == 0 || q == "" {
		return map[string]any{"history": ""}, nil
	}
	res, err := m.col.Query(ctx, q, n, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("eval: chromem: %w", err)
	}
	ranked := make([]int, 0, len(res))
	for _, r := range res {
		id, err := strconv.Atoi(r.ID)
		if err != nil {
			return nil, fmt.Errorf("eval: chromem: document %q: %w", r.ID, err)
		}
		ranked = append(ranked, id)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return map[string]any{"history": m.pack(ranked)}, nil
}
