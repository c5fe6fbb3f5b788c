package eino_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/embedding"
	"github.com/cloudwego/eino/components/retriever"
	"github.com/cloudwego/eino/schema"
	"github.com/engram-go/engram"
	"github.com/engram-go/engram/adapters/eino"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/llms"
	lcschema "github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/vectorstores"
)

func TestEmbeddersConvertPrecision(t *testing.T) {
	ctx := context.Background()
	e := must[*embed.Embedder](t)(embed.New())
	texts := []string{"Priya is a marine biologist", "Lisbon"}
	wide, err := eino.Embedder(e).EmbedStrings(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	narrow, err := eino.LangchainEmbedder(eino.Embedder(e)).EmbedDocuments(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		want := e.Embed(text)
		for j := range want {
			if wide[i][j] != float64(want[j]) || narrow[i][j] != want[j] {
				t.Fatalf("text %d dim %d: %v, %v, want %v", i, j, wide[i][j], narrow[i][j], want[j])
			}
		}
	}
	// A memory can embed with an eino embedder.
	mem := must[*ratedistortion.Buffer](t)(ratedistortion.New(option.WithEmbedder(eino.LangchainEmbedder(eino.Embedder(e)))))
	if err := mem.SaveContext(ctx, map[string]any{"input": "hi"}, map[string]any{"output": "hello"}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), 1e300} {
		_, err := eino.LangchainEmbedder(constEmbedder(bad)).EmbedQuery(ctx, "x")
		if !errors.Is(err, engram.ErrInvalidInput) {
			t.Errorf("vector holding %v: err = %v", bad, err)
		}
	}
}

type constEmbedder float64

func (c constEmbedder) EmbedStrings(_ context.Context, texts []string, _ ...embedding.Option) ([][]float64, error) {
	out := make([][]float64, len(texts))
	for i := range out {
		out[i] = []float64{1, float64(c)}
	}
	return out, nil
}

// store is a vectorstores.VectorStore that records what it was asked.
type store struct {
	k         int
	threshold float32
}

func (s *store) AddDocuments(context.Context, []lcschema.Document, ...vectorstores.Option) ([]string, error) {
	return nil, nil
}

func (s *store) SimilaritySearch(_ context.Context, q string, k int, opts ...vectorstores.Option) ([]lcschema.Document, error) {
	var o vectorstores.Options
	for _, opt := range opts {
		opt(&o)
	}
	s.k, s.threshold = k, o.ScoreThreshold
	return []lcschema.Document{{PageContent: q, Score: 0.75, Metadata: map[string]any{"id": "u7", "role": "human"}}}, nil
}

func TestStoreRetriever(t *testing.T) {
	ctx := context.Background()
	s := &store{}
	docs, err := eino.StoreRetriever{Store: s}.Retrieve(ctx, "Lisbon")
	if err != nil || s.k != eino.DefaultTopK || len(docs) != 1 {
		t.Fatalf("default: k %d, docs %v, err %v", s.k, docs, err)
	}
	if d := docs[0]; d.ID != "u7" || d.Content != "Lisbon" || d.Score() != 0.75 || d.MetaData["role"] != "human" {
		t.Fatalf("converted %+v (score %v)", d, d.Score())
	}
	if _, err := (eino.StoreRetriever{Store: s, TopK: 9}).Retrieve(ctx, "q", retriever.WithTopK(2), retriever.WithScoreThreshold(0.5)); err != nil {
		t.Fatal(err)
	}
	if s.k != 2 || s.threshold != 0.5 {
		t.Fatalf("options not passed: k %d, threshold %v", s.k, s.threshold)
	}
	if _, err := (eino.StoreRetriever{}).Retrieve(ctx, "q"); !errors.Is(err, engram.ErrInvalidOption) {
		t.Fatalf("nil store: err = %v", err)
	}
}

func TestModelAsLangchaingoModel(t *testing.T) {
	ctx := context.Background()
	llm := &fakeModel{script: []any{schema.AssistantMessage("a summary", nil)}}
	out, err := llms.GenerateFromSinglePrompt(ctx, eino.Model(llm), "summarise this", llms.WithMaxTokens(20))
	if err != nil || out != "a summary" {
		t.Fatalf("%q, %v", out, err)
	}
	in := llm.Inputs()[0]
	if len(in) != 1 || in[0].Role != schema.User || in[0].Content != "summarise this" {
		t.Fatalf("model got %v", in)
	}
	if _, err := llms.GenerateFromSinglePrompt(ctx, eino.Model(llm), "again"); err == nil {
		t.Fatal("exhausted model did not fail")
	}
}

func TestModifierLeavesInputOnFailedLoad(t *testing.T) {
	mem := must[*eino.Memory](t)(eino.New(broken{}))
	in := []*schema.Message{schema.UserMessage("hi")}
	if out := mem.Modifier()(context.Background(), in); len(out) != 1 || out[0] != in[0] {
		t.Fatalf("modifier changed the input on a failed load: %v", out)
	}
	if n, err := mem.Errors(); n != 1 || err == nil {
		t.Fatalf("Errors() = %d, %v", n, err)
	}
	if _, err := eino.New(nil); !errors.Is(err, engram.ErrInvalidOption) {
		t.Fatalf("nil memory: err = %v", err)
	}
}

// TestNewRefusesNils: a nil pointer given as the memory, and a nil option,
// are refused with ErrInvalidOption, not a panic then or at the first load.
func TestNewRefusesNils(t *testing.T) {
	if _, err := eino.New((*dmem.Memory)(nil)); !errors.Is(err, engram.ErrInvalidOption) {
		t.Errorf("a nil *dmem.Memory: err = %v", err)
	}
	if _, err := eino.New(broken{}, nil); !errors.Is(err, engram.ErrInvalidOption) {
		t.Errorf("a nil option: err = %v", err)
	}
}

type broken struct{}

func (broken) GetMemoryKey(context.Context) string      { return "history" }
func (broken) MemoryVariables(context.Context) []string { return []string{"history"} }
func (broken) LoadMemoryVariables(context.Context, map[string]any) (map[string]any, error) {
	return nil, errors.New("disk gone")
}
func (broken) SaveContext(context.Context, map[string]any, map[string]any) error { return nil }
func (broken) Clear(context.Context) error                                       { return nil }

// dmem's Memory is a vectorstores.VectorStore, so it serves eino as a scored retriever.
func TestStoreRetrieverOverDmem(t *testing.T) {
	ctx := context.Background()
	m := must[*dmem.Memory](t)(dmem.New(ctx))
	defer m.Close()
	if _, err := m.AddDocuments(ctx, []lcschema.Document{
		{PageContent: "Priya is a marine biologist in Lisbon."},
		{PageContent: "The quarterly report is due on Friday."},
	}); err != nil {
		t.Fatal(err)
	}
	docs, err := eino.StoreRetriever{Store: m}.Retrieve(ctx, "Where does Priya work as a marine biologist?", retriever.WithTopK(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 || !strings.Contains(docs[0].Content, "Lisbon") || docs[0].Score() <= 0 {
		t.Fatalf("retrieved %v", docs)
	}
}
