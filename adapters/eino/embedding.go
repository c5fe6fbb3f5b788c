package eino

import (
	"context"
	"fmt"
	"math"

	"github.com/cloudwego/eino/components/embedding"
	"github.com/engram-go/engram"
	"github.com/tmc/langchaingo/embeddings"
)

// Embedder returns a langchaingo embedder (engram's offline one, say) as an
// eino embedding.Embedder, widening its float32 vectors to float64. eino's
// per-call options do not apply and are ignored.
func Embedder(e embeddings.Embedder) embedding.Embedder { return toEino{e} }

// LangchainEmbedder returns an eino embedder as a langchaingo one, so that a
// memory can use it (option.WithEmbedder, say). Vectors are narrowed
// to float32; a value that does not fit (NaN, infinite or beyond float32's
// range) gives an error wrapping [engram.ErrInvalidInput].
func LangchainEmbedder(e embedding.Embedder) embeddings.Embedder { return fromEino{e} }

type toEino struct{ e embeddings.Embedder }

func (t toEino) EmbedStrings(ctx context.Context, texts []string, _ ...embedding.Option) ([][]float64, error) {
	vs, err := t.e.EmbedDocuments(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("eino: embed: %w", err)
	}
	out := make([][]float64, len(vs))
	for i, v := range vs {
		out[i] = make([]float64, len(v))
		for j, x := range v {
			out[i][j] = float64(x)
		}
	}
	return out, nil
}

type fromEino struct{ e embedding.Embedder }

func (f fromEino) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	vs, err := f.e.EmbedStrings(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("eino: embed: %w", err)
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("eino: embedder returned %d vectors for %d texts: %w", len(vs), len(texts), engram.ErrInvalidInput)
	}
	out := make([][]float32, len(vs))
	for i, v := range vs {
		out[i] = make([]float32, len(v))
		for j, x := range v {
			y := float32(x)
			if math.IsNaN(x) || math.IsInf(float64(y), 0) {
				return nil, fmt.Errorf("eino: vector %d holds %v: %w", i, x, engram.ErrInvalidInput)
			}
			out[i][j] = y
		}
	}
	return out, nil
}

func (f fromEino) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	vs, err := f.EmbedDocuments(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}
