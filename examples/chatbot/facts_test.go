package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms"
)

// factModel reads one fact from each message that states where the user
// lives, naming the slot as the known one when it changes.
type factModel struct{}

func (factModel) GenerateContent(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	var human string
	for _, m := range msgs {
		if m.Role == llms.ChatMessageTypeHuman {
			for _, p := range m.Parts {
				if t, ok := p.(llms.TextContent); ok {
					human += t.Text
				}
			}
		}
	}
	reply := "NONE"
	switch {
	case strings.Contains(human, "I live in Lisbon"):
		reply = "user | home city | Lisbon"
	case strings.Contains(human, "relocated to Edinburgh"):
		reply = "user | home city | Edinburgh"
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: reply}}}, nil
}

func (m factModel) Call(ctx context.Context, prompt string, _ ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt)
}

func TestFactsFlag(t *testing.T) {
	for _, args := range [][]string{{"-facts"}, {"-facts", "-llm", "ollama", "-memory", "window"}} {
		if _, err := parseFlags(args, &strings.Builder{}); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	ctx := context.Background()
	for _, m := range []string{"rd", "dmem"} {
		c, err := parseFlags([]string{"-facts", "-llm", "ollama", "-memory", m, "-budget", "40"}, &strings.Builder{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := newBackend(ctx, c, factModel{})
		if err != nil {
			t.Fatal(err)
		}
		save := func(in, out string) {
			if err := b.rec.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": out}); err != nil {
				t.Fatal(err)
			}
		}
		filler := func(from int) {
			for i := from; i < from+20; i++ {
				save(fmt.Sprintf("Marathon training, week %d, legs sore.", i), "Keep going!")
			}
		}
		save("I live in Lisbon, above a bakery.", "Lovely.")
		filler(0)
		save("We relocated to Edinburgh last month.", "Big change!")
		filler(20) // the change is not the newest turn, which recency would favour
		vars, err := b.rec.LoadMemoryVariables(ctx, map[string]any{"input": "Which city do I live in?"})
		if err != nil {
			t.Fatal(err)
		}
		if h := fmt.Sprint(vars["history"]); !strings.Contains(h, "Edinburgh") {
			t.Errorf("-memory %s -facts: the newest value is not shown:\n%s", m, h)
		}
		if err := b.close(); err != nil {
			t.Fatal(err)
		}
	}
}
