package eino_test

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/components/retriever"
	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"
	"github.com/engram-go/engram/adapters/eino"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/llms"
)

// An eino ReAct agent reads the memory before each model call and saves
// each turn through Memory.Generate.
func ExampleMemory() {
	ctx := context.Background()
	buf, _ := ratedistortion.New()
	mem, _ := eino.New(buf)
	llm := &fakeModel{script: []any{
		schema.AssistantMessage("Nice!", nil),
		schema.AssistantMessage("In Lisbon.", nil),
	}}
	agent, _ := react.NewAgent(ctx, &react.AgentConfig{ToolCallingModel: llm, MessageModifier: mem.Modifier()})

	_, _ = mem.Generate(ctx, agent, []*schema.Message{schema.UserMessage("Priya works in Lisbon.")})
	out, _ := mem.Generate(ctx, agent, []*schema.Message{schema.UserMessage("Where does Priya work?")})
	fmt.Println(out.Content)
	fmt.Println(llm.Inputs()[1][0].Content)
	// Output:
	// In Lisbon.
	// What you remember of earlier conversation:
	// Human: Priya works in Lisbon.
	// AI: Nice!
}

// A memory serves eino as a retriever.
func ExampleRetriever() {
	ctx := context.Background()
	buf, _ := ratedistortion.New()
	_ = buf.SaveContext(ctx, map[string]any{"input": "Priya works in Lisbon."}, map[string]any{"output": "Nice!"})
	docs, _ := eino.Retriever{Memory: buf}.Retrieve(ctx, "Where does Priya work?", retriever.WithTopK(1))
	fmt.Println(docs[0].Content)
	// Output: AI: Nice!
}

// A vector store — dmem's, or any langchaingo one — serves eino with scores.
func ExampleStoreRetriever() {
	docs, _ := eino.StoreRetriever{Store: &store{}}.Retrieve(context.Background(), "Lisbon")
	fmt.Println(docs[0].Content, docs[0].Score())
	// Output: Lisbon 0.75
}

// eino embeds in float64, langchaingo and engram in float32.
func ExampleEmbedder() {
	e, _ := embed.New(embed.WithGloVeShare(0), embed.WithDimensions(32))
	vs, _ := eino.Embedder(e).EmbedStrings(context.Background(), []string{"Lisbon"})
	fmt.Printf("%d %T\n", len(vs[0]), vs[0][0])
	// Output: 32 float64
}

// An eino embedder can be a memory's embedder.
func ExampleLangchainEmbedder() {
	var einoEmbedder = constEmbedder(0.5) // say, an embedder from eino-ext
	buf, err := ratedistortion.New(option.WithEmbedder(eino.LangchainEmbedder(einoEmbedder)))
	fmt.Println(buf != nil, err)
	// Output: true <nil>
}

// An eino chat model can summarise for a memory.
func ExampleModel() {
	llm := &fakeModel{script: []any{schema.AssistantMessage("Priya: Lisbon.", nil)}}
	out, _ := llms.GenerateFromSinglePrompt(context.Background(), eino.Model(llm), "Summarise: Priya works in Lisbon.")
	fmt.Println(out)
	// Output: Priya: Lisbon.
}
