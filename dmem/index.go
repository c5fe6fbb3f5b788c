package dmem

import (
	"context"
	"errors"
	"fmt"

	chromem "github.com/philippgille/chromem-go"
)

// index is a chromem collection of core units' vectors: a memory's own
// when it has no store, the embedded store's per namespace and dimension
// otherwise. It is an index, not a record: rebuilt on open and never
// persisted by chromem. Writes are serialised by their owner's lock
// (chromem reads its document map unlocked in Delete); queries only take
// chromem's read lock.
type index struct {
	col *chromem.Collection
}

// errNoEmbedding is the embedding function given to chromem, which calls it
// only for documents without a vector; we never add one, and a nil function
// would make chromem fall back to OpenAI.
func errNoEmbedding(context.Context, string) ([]float32, error) {
	return nil, errors.New("dmem: index embeds nothing itself")
}

func newIndex() (*index, error) {
	col, err := chromem.NewDB().CreateCollection("core", nil, errNoEmbedding)
	if err != nil {
		return nil, fmt.Errorf("dmem: index: %w", err)
	}
	return &index{col: col}, nil
}

// add indexes vec under id. vec must be unit-normalised and non-zero;
// chromem keeps the slice, which must not change afterwards.
func (ix *index) add(ctx context.Context, id string, vec []float32) error {
	if err := ix.col.AddDocument(ctx, chromem.Document{ID: id, Embedding: vec}); err != nil {
		return fmt.Errorf("dmem: index %s: %w", id, err)
	}
	return nil
}

func (ix *index) remove(ctx context.Context, id string) error {
	if err := ix.col.Delete(ctx, nil, nil, id); err != nil {
		return fmt.Errorf("dmem: unindex %s: %w", id, err)
	}
	return nil
}

func (ix *index) count() int { return ix.col.Count() }

// hit is a search result: a unit id and its cosine similarity.
type hit struct {
	id  string
	sim float64
}

// nearest returns up to n ids most similar to the unit vector q, best first.
// chromem refuses n above its count, so n is clamped; results carry no
// shared maps.
func (ix *index) nearest(ctx context.Context, q []float32, n int) ([]hit, error) {
	n = min(n, ix.col.Count())
	if n <= 0 {
		return nil, nil
	}
	res, err := ix.col.QueryEmbedding(ctx, q, n, nil, nil)
	if err != nil {
		// A concurrent delete can shrink the collection below n.
		if c := ix.col.Count(); c < n && c > 0 {
			res, err = ix.col.QueryEmbedding(ctx, q, c, nil, nil)
		}
		if err != nil {
			return nil, fmt.Errorf("dmem: query index: %w", err)
		}
	}
	out := make([]hit, len(res))
	for i, r := range res {
		out[i] = hit{id: r.ID, sim: float64(r.Similarity)}
	}
	return out, nil
}
