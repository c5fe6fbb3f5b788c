package langchaingo_test

import (
	"context"
	"fmt"

	"github.com/engram-go/engram/adapters/langchaingo"
	"github.com/engram-go/engram/adapters/langchaingo/memorytest"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
	chromem "github.com/philippgille/chromem-go"
)

// Any langchaingo embedder can back a chromem-go collection; documents are
// embedded in batches before they are added.
func ExampleEmbedDocuments() {
	ctx := context.Background()
	e, _ := embed.New()
	col, _ := chromem.NewDB().CreateCollection("notes", nil, langchaingo.EmbeddingFunc(e))
	docs := []chromem.Document{
		{ID: "flight", Content: "The flight to Lisbon leaves at 9:40 on Friday."},
		{ID: "milk", Content: "Buy milk and eggs."},
	}
	_ = langchaingo.EmbedDocuments(ctx, e, docs, 64)
	_ = col.AddDocuments(ctx, docs, 1)
	res, _ := col.Query(ctx, "When is the Lisbon flight?", 1, nil, nil)
	fmt.Println(res[0].ID)
	// Output: flight
}

// EmbeddingFunc alone embeds one text per call, as chromem-go asks.
func ExampleEmbeddingFunc() {
	e, _ := embed.New(embed.WithGloVeShare(0), embed.WithDimensions(64))
	v, _ := langchaingo.EmbeddingFunc(e)(context.Background(), "marine biologist")
	fmt.Println(len(v))
	// Output: 64
}

// A memory can count tokens for the model it feeds.
func ExampleTokenCounter() {
	count, _ := langchaingo.TokenCounter("gpt-4o")
	mem, _ := ratedistortion.New(option.WithTokenCounter(count), option.WithTokenBudget(500))
	fmt.Println(count("Hello, world!"), mem.Len())
	// Output: 4 0
}

// CountTokens counts as langchaingo's own ConversationTokenBuffer does.
func ExampleCountTokens() {
	fmt.Println(langchaingo.CountTokens("gpt-4")("Hello, world!"))
	// Output: 4
}

// Summarizer turns any langchaingo model into a summarising function.
func ExampleSummarizer() {
	llm := memorytest.NewRecorder("Priya is a marine biologist in Lisbon.")
	sum := langchaingo.Summarizer(llm, "")
	s, _ := sum(context.Background(), "Human: My sister Priya works in Lisbon, as a marine biologist.", 20)
	fmt.Println(s)
	// Output: Priya is a marine biologist in Lisbon.
}

// A memory serves retrieval chains as a schema.Retriever.
func ExampleRetriever() {
	ctx := context.Background()
	mem, _ := ratedistortion.New()
	_ = mem.SaveContext(ctx, map[string]any{"input": "My sister Priya is a marine biologist."}, map[string]any{"output": "Nice!"})
	docs, _ := langchaingo.Retriever{Memory: mem}.GetRelevantDocuments(ctx, "What does Priya do?")
	for _, d := range docs {
		fmt.Printf("%s | %s\n", d.Metadata["role"], d.PageContent)
	}
	// Output:
	// Human | Human: My sister Priya is a marine biologist.
	// AI | AI: Nice!
}
