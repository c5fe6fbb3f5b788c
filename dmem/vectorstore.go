package dmem

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/memvars"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/vectorstores"
)

// AddDocuments stores documents as units in core memory: an explicit add
// is a decision already made, so the gate is bypassed (novelty is still
// measured and kept). It returns their ids. An empty document or
// unencodable metadata gives [engram.ErrInvalidInput] and nothing is
// stored; so do the options, which this store does not support.
func (m *Memory) AddDocuments(ctx context.Context, docs []schema.Document, options ...vectorstores.Option) ([]string, error) {
	if err := memvars.Context(ctx); err != nil {
		return nil, fmt.Errorf("dmem: add documents: %w", err)
	}
	if err := unsupported(options); err != nil {
		return nil, fmt.Errorf("dmem: add documents: %w", err)
	}
	ds := make([]draft, len(docs))
	for i, d := range docs {
		if strings.TrimSpace(d.PageContent) == "" {
			return nil, fmt.Errorf("dmem: add documents: document %d is empty: %w", i, engram.ErrInvalidInput)
		}
		ds[i] = draft{role: engram.RoleSystem, text: d.PageContent, force: true}
		if len(d.Metadata) > 0 {
			b, err := json.Marshal(d.Metadata)
			if err != nil {
				return nil, fmt.Errorf("dmem: add documents: document %d metadata: %w: %w", i, engram.ErrInvalidInput, err)
			}
			ds[i].meta = b
		}
	}
	if len(ds) == 0 {
		return nil, nil
	}
	return m.record(ctx, ds)
}

// SimilaritySearch returns the n stored units that best match query by the
// same fused score as a load (without a budget), best first, as documents
// whose metadata holds the unit's "id" and what AddDocuments was given.
// vectorstores.WithScoreThreshold drops results scoring below it.
func (m *Memory) SimilaritySearch(ctx context.Context, query string, n int, options ...vectorstores.Option) ([]schema.Document, error) {
	if err := memvars.Context(ctx); err != nil {
		return nil, fmt.Errorf("dmem: search: %w", err)
	}
	if err := unsupported(options); err != nil {
		return nil, fmt.Errorf("dmem: search: %w", err)
	}
	if n <= 0 {
		return nil, fmt.Errorf("dmem: search: %d results: %w", n, engram.ErrInvalidInput)
	}
	var o vectorstores.Options
	for _, opt := range options {
		if opt != nil { // langchaingo's stores skip none, but a nil one is no option
			opt(&o)
		}
	}
	cs, _, epoch, err := m.search(ctx, query)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return cmp.Compare(b.score, a.score) })
	var out []schema.Document
	var ids []string
	for _, c := range cs {
		if len(out) == n || float32(c.score) < o.ScoreThreshold {
			break
		}
		meta := map[string]any{}
		if len(c.meta) > 0 {
			_ = json.Unmarshal(c.meta, &meta) // written by json.Marshal above
		}
		meta["id"] = c.id
		out = append(out, schema.Document{PageContent: c.text, Metadata: meta, Score: float32(c.score)})
		ids = append(ids, c.id)
	}
	m.noteRetrieved(ids, false, epoch)
	return out, nil
}

// unsupported refuses vector-store options that would change what is
// stored or searched: namespaces, filters, another embedder, deduplication.
func unsupported(options []vectorstores.Option) error {
	var o vectorstores.Options
	for _, opt := range options {
		if opt != nil { // langchaingo's stores skip none, but a nil one is no option
			opt(&o)
		}
	}
	if o.NameSpace != "" || o.Filters != nil || o.Embedder != nil || o.Deduplicater != nil {
		return fmt.Errorf("namespace, filters, embedder and deduplicater options are not supported: %w", engram.ErrInvalidInput)
	}
	if math.IsNaN(float64(o.ScoreThreshold)) {
		return fmt.Errorf("score threshold is NaN: %w", engram.ErrInvalidInput)
	}
	return nil
}
