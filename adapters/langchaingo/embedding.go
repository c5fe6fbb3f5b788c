package langchaingo

import (
	"context"
	"fmt"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	chromem "github.com/philippgille/chromem-go"
	"github.com/tmc/langchaingo/embeddings"
)

// EmbeddingFunc returns e as a chromem-go embedding function. chromem-go
// compares by dot product and trusts the function to return unit vectors,
// so each vector is normalised (a zero vector stays zero).
func EmbeddingFunc(e embeddings.Embedder) chromem.EmbeddingFunc {
	return func(ctx context.Context, text string) ([]float32, error) {
		v, err := e.EmbedQuery(ctx, text)
		if err != nil {
			return nil, fmt.Errorf("langchaingo: embed: %w", err)
		}
		return embed.Normalized(v), nil
	}
}

// EmbedDocuments sets the Embedding of each document that has none, asking e
// for batchSize texts per call (all of them in one call if batchSize ≤ 0),
// and normalises it. chromem-go's AddDocuments then embeds nothing itself,
// instead of calling the embedding function once per document. On error no
// document is changed.
func EmbedDocuments(ctx context.Context, e embeddings.Embedder, docs []chromem.Document, batchSize int) error {
	var todo []int
	for i := range docs {
		if len(docs[i].Embedding) == 0 {
			todo = append(todo, i)
		}
	}
	if batchSize <= 0 {
		batchSize = max(len(todo), 1)
	}
	vecs := make([][]float32, 0, len(todo))
	for start := 0; start < len(todo); start += batchSize {
		batch := todo[start:min(start+batchSize, len(todo))]
		texts := make([]string, len(batch))
		for j, i := range batch {
			texts[j] = docs[i].Content
		}
		got, err := e.EmbedDocuments(ctx, texts)
		if err != nil {
			return fmt.Errorf("langchaingo: embed documents: %w", err)
		}
		if len(got) != len(texts) {
			return fmt.Errorf("langchaingo: embedder returned %d vectors for %d texts: %w", len(got), len(texts), engram.ErrInvalidInput)
		}
		vecs = append(vecs, got...)
	}
	for j, i := range todo {
		docs[i].Embedding = embed.Normalized(vecs[j])
	}
	return nil
}
