package eino

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/components/retriever"
	"github.com/cloudwego/eino/schema"
	"github.com/engram-go/engram"
	"github.com/engram-go/engram/adapters/langchaingo"
	lcschema "github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/vectorstores"
)

// DefaultTopK is how many documents a [StoreRetriever] returns when neither
// it nor the call sets TopK.
const DefaultTopK = 4

// Retriever is an eino retriever.Retriever over a memory: a query loads the
// memory, and each remembered message becomes a document, oldest first.
// retriever.WithTopK keeps the latest k. Other options are ignored.
type Retriever struct {
	// Memory is loaded with the query.
	Memory lcschema.Memory
	// InputKey is the key the query is passed under; "" means "input".
	InputKey string
}

var _ retriever.Retriever = Retriever{}

// Retrieve returns what the memory keeps for query.
func (r Retriever) Retrieve(ctx context.Context, query string, opts ...retriever.Option) ([]*schema.Document, error) {
	if r.Memory == nil {
		return nil, fmt.Errorf("eino: retrieve: nil memory: %w", engram.ErrInvalidOption)
	}
	docs, err := langchaingo.Retriever{Memory: r.Memory, InputKey: r.InputKey}.GetRelevantDocuments(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("eino: retrieve: %w", err)
	}
	o := retriever.GetCommonOptions(nil, opts...)
	if o.TopK != nil && *o.TopK >= 0 && *o.TopK < len(docs) {
		docs = docs[len(docs)-*o.TopK:]
	}
	return convert(docs, false), nil
}

// StoreRetriever is an eino retriever.Retriever over a langchaingo
// vectorstores.VectorStore, such as dmem's store. It honours
// retriever.WithTopK and retriever.WithScoreThreshold, and keeps the
// store's scores (Document.Score).
type StoreRetriever struct {
	// Store is searched with the query.
	Store vectorstores.VectorStore
	// TopK is the default number of documents; 0 means [DefaultTopK].
	TopK int
	// Options are passed to every search.
	Options []vectorstores.Option
}

var _ retriever.Retriever = StoreRetriever{}

// Retrieve returns the store's documents most similar to query.
func (r StoreRetriever) Retrieve(ctx context.Context, query string, opts ...retriever.Option) ([]*schema.Document, error) {
	if r.Store == nil {
		return nil, fmt.Errorf("eino: retrieve: nil store: %w", engram.ErrInvalidOption)
	}
	k := r.TopK
	if k <= 0 {
		k = DefaultTopK
	}
	o := retriever.GetCommonOptions(&retriever.Options{TopK: &k}, opts...)
	vopts := append([]vectorstores.Option(nil), r.Options...)
	if o.ScoreThreshold != nil {
		vopts = append(vopts, vectorstores.WithScoreThreshold(float32(*o.ScoreThreshold)))
	}
	if *o.TopK <= 0 {
		return nil, nil
	}
	docs, err := r.Store.SimilaritySearch(ctx, query, *o.TopK, vopts...)
	if err != nil {
		return nil, fmt.Errorf("eino: retrieve: %w", err)
	}
	return convert(docs, true), nil
}

// convert turns langchaingo documents into eino's; metadata is copied, and
// an "id" entry, if a string, becomes the document's ID.
func convert(docs []lcschema.Document, scored bool) []*schema.Document {
	out := make([]*schema.Document, len(docs))
	for i, d := range docs {
		meta := make(map[string]any, len(d.Metadata))
		for k, v := range d.Metadata {
			meta[k] = v
		}
		id, _ := meta["id"].(string)
		e := &schema.Document{ID: id, Content: d.PageContent, MetaData: meta}
		if scored {
			e = e.WithScore(float64(d.Score))
		}
		out[i] = e
	}
	return out
}
