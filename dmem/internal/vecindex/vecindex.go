// Package vecindex is the chromem-go collection that finds core units by
// their vectors: an in-process memory's own, and the embedded store's per
// namespace and dimension. It is an index, not a record: rebuilt on open
// and never persisted by chromem. Writes are serialised by their owner's
// lock (chromem reads its document map unlocked in Delete), which queries
// take for reading. The store's index ([NewScanned]) answers a query by
// its own exact pass over rows of vectors beside the collection.
package vecindex

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/engram-go/engram"
	chromem "github.com/philippgille/chromem-go"
)

// Index is a chromem collection of unit vectors, by id. An index made by
// [NewScanned] also keeps the vectors in rows of its own, which chromem
// shares, and answers Nearest by scanning them in order.
type Index struct {
	col  *chromem.Collection
	rows *rows // nil: chromem's query answers Nearest
}

// errNoEmbedding is the embedding function given to chromem, which calls it
// only for documents without a vector; we never add one, and a nil function
// would make chromem fall back to OpenAI.
func errNoEmbedding(context.Context, string) ([]float32, error) {
	return nil, errors.New("index: embeds nothing itself")
}

// New returns an empty index that keeps the slices it is given: an
// in-process memory's, whose units hold their vectors anyway.
func New() *Index {
	col, err := chromem.NewDB().CreateCollection("core", nil, errNoEmbedding)
	if err != nil {
		panic(err) // creating a collection in a fresh in-memory DB cannot fail
	}
	return &Index{col: col}
}

// NewScanned returns an empty index that copies each vector into rows of
// its own, which chromem shares, and answers Nearest by one pass over
// them: a store's, which holds its records on disk and the index alone
// in memory. chromem's query sends every document through a channel; on
// the development set's turns at 10,000 units the pass takes a tenth of
// its time.
func NewScanned() *Index {
	ix := New()
	ix.rows = &rows{at: make(map[string]int32)}
	return ix
}

// Add indexes vec under id. vec must be non-zero. An index from [New]
// keeps the slice, which must not change afterwards (chromem normalises a
// copy if it is not at unit length); one from [NewScanned] copies it at
// unit length.
func (ix *Index) Add(ctx context.Context, id string, vec []float32) error {
	if id == "" || len(vec) == 0 {
		return fmt.Errorf("index %q: no id or no vector: %w", id, engram.ErrInvalidInput)
	}
	if ix.rows != nil {
		if ix.rows.dim != 0 && len(vec) != ix.rows.dim {
			return fmt.Errorf("index %s: %d dimensions in an index of %d: %w", id, len(vec), ix.rows.dim, engram.ErrInvalidInput)
		}
		vec = ix.rows.put(id, vec)
	}
	if err := ix.col.AddDocument(ctx, chromem.Document{ID: id, Embedding: vec}); err != nil {
		if ix.rows != nil {
			ix.rows.drop(id) // what chromem does not hold, no search finds
		}
		return fmt.Errorf("index %s: %w", id, err)
	}
	return nil
}

// Remove unindexes id; removing an id not indexed does nothing.
func (ix *Index) Remove(ctx context.Context, id string) error {
	if err := ix.col.Delete(ctx, nil, nil, id); err != nil {
		return fmt.Errorf("unindex %s: %w", id, err)
	}
	if ix.rows != nil {
		ix.rows.drop(id)
	}
	return nil
}

// Count returns how many vectors are indexed.
func (ix *Index) Count() int { return ix.col.Count() }

// Hit is a search result: an id and its cosine similarity.
type Hit struct {
	ID  string
	Sim float64
}

// Nearest returns up to n ids most similar to the unit vector q, best first.
// chromem refuses n above its count, so n is clamped; results carry no
// shared maps.
func (ix *Index) Nearest(ctx context.Context, q []float32, n int) ([]Hit, error) {
	if ix.rows != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return ix.rows.nearest(q, n), nil
	}
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
			return nil, fmt.Errorf("query index: %w", err)
		}
	}
	out := make([]Hit, len(res))
	for i, r := range res {
		out[i] = Hit{ID: r.ID, Sim: float64(r.Similarity)}
	}
	return out, nil
}

// Normalised returns v scaled to unit length (a copy), refusing non-finite
// components as invalid input. A zero vector stays zero: it is stored but
// never indexed.
func Normalised(v []float32) ([]float32, error) {
	var s float64
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("non-finite component: %w", engram.ErrInvalidInput)
		}
		s += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if s == 0 {
		return out, nil
	}
	inv := 1 / math.Sqrt(s)
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out, nil
}

// Zero reports whether every component of v is 0.
func Zero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}
