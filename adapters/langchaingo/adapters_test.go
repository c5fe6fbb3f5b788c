package langchaingo_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/engram-go/engram/adapters/langchaingo"
	"github.com/engram-go/engram/adapters/langchaingo/memorytest"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/tokens"
	chromem "github.com/philippgille/chromem-go"
	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/vectorstores"
)

// scaled is an embedder whose vectors are not unit length, counting its calls.
type scaled struct {
	inner embeddings.Embedder
	calls atomic.Int64
}

func (s *scaled) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	s.calls.Add(1)
	vs, err := s.inner.EmbedDocuments(ctx, texts)
	for _, v := range vs {
		for i := range v {
			v[i] *= 3
		}
	}
	return vs, err
}

func (s *scaled) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	vs, err := s.EmbedDocuments(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func TestChromemWithEmbedder(t *testing.T) {
	ctx := context.Background()
	e := &scaled{inner: must[*embed.Embedder](t)(embed.New())}
	db := chromem.NewDB()
	col := must[*chromem.Collection](t)(db.CreateCollection("notes", nil, langchaingo.EmbeddingFunc(e)))
	docs := []chromem.Document{
		{ID: "1", Content: "The flight to Lisbon leaves at 9:40 on Friday."},
		{ID: "2", Content: "Priya is a marine biologist."},
		{ID: "3", Content: "The weather in Paris is sunny."},
		{ID: "4", Content: "Buy milk and eggs."},
		{ID: "5", Content: "Already embedded.", Embedding: []float32{1}},
	}
	if err := langchaingo.EmbedDocuments(ctx, e, docs, 2); err != nil {
		t.Fatal(err)
	}
	if got := e.calls.Load(); got != 2 {
		t.Fatalf("4 texts in batches of 2 took %d calls", got)
	}
	for _, d := range docs[:4] {
		if n := norm(d.Embedding); math.Abs(n-1) > 1e-5 {
			t.Fatalf("doc %s has norm %v", d.ID, n)
		}
	}
	if err := col.AddDocuments(ctx, docs[:4], 2); err != nil {
		t.Fatal(err)
	}
	if got := e.calls.Load(); got != 2 {
		t.Fatalf("chromem embedded again: %d calls", got)
	}
	res, err := col.Query(ctx, "When does the flight to Lisbon leave?", 1, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].ID != "1" || res[0].Similarity > 1.0001 {
		t.Fatalf("query found %+v", res[0])
	}
	v, err := langchaingo.EmbeddingFunc(e)(ctx, "x y z")
	if err != nil || math.Abs(norm(v)-1) > 1e-5 {
		t.Fatalf("EmbeddingFunc: norm %v, err %v", norm(v), err)
	}
}

func TestEmbedDocumentsErrorChangesNothing(t *testing.T) {
	docs := []chromem.Document{{ID: "1", Content: "a"}}
	bad := failing{}
	if err := langchaingo.EmbedDocuments(context.Background(), bad, docs, 0); err == nil || docs[0].Embedding != nil {
		t.Fatalf("err %v, embedding %v", err, docs[0].Embedding)
	}
}

type failing struct{}

func (failing) EmbedDocuments(context.Context, []string) ([][]float32, error) {
	return nil, errors.New("down")
}
func (failing) EmbedQuery(context.Context, string) ([]float32, error) { return nil, errors.New("down") }

func TestTokenCounter(t *testing.T) {
	tests := []struct {
		model string
		enc   tokens.Encoding
	}{
		{"gpt-4", tokens.CL100kBase},
		{"gpt-3.5-turbo-0125", tokens.CL100kBase},
		{"gpt-4o", tokens.O200kBase},
		{"gpt-4o-mini-2024-07-18", tokens.O200kBase},
	}
	const text = "Priya's flight leaves Lisbon at 9:40."
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			c, err := langchaingo.TokenCounter(tt.model)
			if err != nil {
				t.Fatal(err)
			}
			want := must[*tokens.Counter](t)(tokens.Get(tt.enc)).Count(text)
			if got := c(text); got != want {
				t.Fatalf("%d tokens, want %d", got, want)
			}
			if got := langchaingo.CountTokens(tt.model)(text); got != want {
				t.Fatalf("CountTokens: %d tokens, want %d", got, want)
			}
		})
	}
	if _, err := langchaingo.TokenCounter("davinci-002"); !errors.Is(err, tokens.ErrUnknownEncoding) {
		t.Fatalf("unembedded encoding: err = %v", err)
	}
	if _, err := langchaingo.TokenCounter("llama3"); !errors.Is(err, tokens.ErrUnknownEncoding) {
		t.Fatalf("unknown model: err = %v", err)
	}
}

func TestSummarizer(t *testing.T) {
	llm := memorytest.NewRecorder("  Priya: marine biologist, Lisbon.  ")
	sum := langchaingo.Summarizer(llm, "")
	got, err := sum(context.Background(), "Human: My sister Priya is a marine biologist in Lisbon.", 30)
	if err != nil || got != "Priya: marine biologist, Lisbon." {
		t.Fatalf("summary %q, %v", got, err)
	}
	if p := llm.Last(); !strings.Contains(p, "at most 30 tokens") || !strings.Contains(p, "Priya is a marine") {
		t.Fatalf("prompt %q", p)
	}
	if got, _ := sum(context.Background(), "  ", 30); got != "" {
		t.Fatalf("empty text summarised to %q", got)
	}
	pct := langchaingo.Summarizer(llm, "Keep 100% of the names. Use at most %d tokens.")
	if _, err := pct(context.Background(), "Human: hi", 40); err != nil {
		t.Fatal(err)
	}
	if p := llm.Last(); !strings.Contains(p, "Keep 100% of the names. Use at most 40 tokens.") {
		t.Fatalf("prompt with a percent sign became %q", p)
	}
}

func TestRetrieverOverEachMemory(t *testing.T) {
	for _, m := range memories {
		t.Run(m.name, func(t *testing.T) {
			ctx := context.Background()
			mem := m.new(t)
			if err := mem.SaveContext(ctx, map[string]any{"input": "My sister Priya is a marine biologist in Lisbon."}, map[string]any{"output": "Nice!"}); err != nil {
				t.Fatal(err)
			}
			docs, err := langchaingo.Retriever{Memory: mem}.GetRelevantDocuments(ctx, "Where does Priya work?")
			if err != nil {
				t.Fatal(err)
			}
			var found bool
			for _, d := range docs {
				found = found || strings.Contains(d.PageContent, "marine biologist in Lisbon")
			}
			if !found {
				t.Fatalf("retriever returned %+v", docs)
			}
		})
	}
}

func TestDocumentsFromMessages(t *testing.T) {
	m := messagesMemory{llms.HumanChatMessage{Content: "hi"}, llms.AIChatMessage{Content: "hello"}}
	docs, err := langchaingo.Documents(context.Background(), m, nil)
	if err != nil || len(docs) != 2 || docs[1].PageContent != "hello" || docs[1].Metadata["role"] != "ai" {
		t.Fatalf("docs %+v, %v", docs, err)
	}
}

type messagesMemory []llms.ChatMessage

func (messagesMemory) GetMemoryKey(context.Context) string      { return "history" }
func (messagesMemory) MemoryVariables(context.Context) []string { return []string{"history"} }
func (m messagesMemory) LoadMemoryVariables(context.Context, map[string]any) (map[string]any, error) {
	return map[string]any{"history": []llms.ChatMessage(m)}, nil
}
func (messagesMemory) SaveContext(context.Context, map[string]any, map[string]any) error { return nil }
func (messagesMemory) Clear(context.Context) error                                       { return nil }

// dmem's Memory is a vectorstores.VectorStore: langchaingo's own
// ToRetriever makes it a schema.Retriever for the retrieval chains.
func TestDmemAsVectorStoreRetriever(t *testing.T) {
	ctx := context.Background()
	m := must[*dmem.Memory](t)(dmem.New(ctx))
	defer m.Close()
	if _, err := m.AddDocuments(ctx, []schema.Document{
		{PageContent: "Priya is a marine biologist in Lisbon."},
		{PageContent: "The quarterly report is due on Friday."},
	}); err != nil {
		t.Fatal(err)
	}
	docs, err := vectorstores.ToRetriever(m, 1).GetRelevantDocuments(ctx, "Where does Priya work as a marine biologist?")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 || !strings.Contains(docs[0].PageContent, "Lisbon") {
		t.Fatalf("retrieved %v", docs)
	}
}
