package eino_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/retriever"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"
	"github.com/engram-go/engram/adapters/eino"
)

// memoryMessages counts the system messages the adapter inserted.
func memoryMessages(in []*schema.Message) (n int, text string) {
	for _, m := range in {
		if m.Role == schema.System && strings.HasPrefix(m.Content, "What you remember") {
			n++
			text = m.Content
		}
	}
	return n, text
}

// TestReActAgentRemembersAcrossTurns runs an eino ReAct agent with a fake
// model for several turns, one with a tool call and one that fails, against
// each memory: the history reaches the model through MessageModifier, each
// turn is saved, the failed turn is Observed, and the memory's retriever
// serves the same facts.
func TestReActAgentRemembersAcrossTurns(t *testing.T) {
	for _, mm := range memories {
		t.Run(mm.name, func(t *testing.T) {
			ctx := context.Background()
			raw := mm.new(t)
			mem := must[*eino.Memory](t)(eino.New(raw))
			llm := &fakeModel{script: []any{
				schema.AssistantMessage("Nice!", nil),
				callWeather("Paris"),
				schema.AssistantMessage("It is 18°C and sunny in Paris.", nil),
				errors.New("model overloaded"),
				schema.AssistantMessage("She works in Lisbon.", nil),
			}}
			agent, err := react.NewAgent(ctx, &react.AgentConfig{
				ToolCallingModel: llm,
				ToolsConfig:      compose.ToolsNodeConfig{Tools: []tool.BaseTool{weather{}}},
				MessageModifier:  mem.Modifier(),
			})
			if err != nil {
				t.Fatal(err)
			}
			turn := func(text string) (*schema.Message, error) {
				return mem.Generate(ctx, agent, []*schema.Message{
					schema.SystemMessage("You are a helpful assistant."),
					schema.UserMessage(text),
				})
			}

			if _, err := turn("My sister Priya is a marine biologist in Lisbon."); err != nil {
				t.Fatal(err)
			}
			out, err := turn("What is the weather in Paris?")
			if err != nil || !strings.Contains(out.Content, "18°C") {
				t.Fatalf("weather turn: %v, %v", out, err)
			}
			if _, err := turn("Book me a table in Paris."); err == nil {
				t.Fatal("turn with a failing model succeeded")
			}
			out, err = turn("Where does Priya work?")
			if err != nil || out.Content != "She works in Lisbon." {
				t.Fatalf("last turn: %v, %v", out, err)
			}

			inputs := llm.Inputs()
			if len(inputs) != 5 {
				t.Fatalf("model called %d times, want 5", len(inputs))
			}
			for i, in := range inputs[1:] {
				if n, _ := memoryMessages(in); n != 1 {
					t.Fatalf("model call %d has %d memory messages, want 1", i+2, n)
				}
				if in[0].Role != schema.System || in[0].Content != "You are a helpful assistant." {
					t.Fatalf("model call %d: the agent's own system message is not first", i+2)
				}
			}
			_, last := memoryMessages(inputs[4])
			for _, want := range []string{"marine biologist in Lisbon", "It is 18°C and sunny in Paris.", `task "Book me a table in Paris." failed: `} {
				if !strings.Contains(last, want) {
					t.Errorf("the last turn's memory lacks %q:\n%s", want, last)
				}
			}
			if n, err := mem.Errors(); n != 0 {
				t.Fatalf("%d failed loads, last %v", n, err)
			}

			docs, err := eino.Retriever{Memory: raw}.Retrieve(ctx, "Where does Priya work?", retriever.WithTopK(50))
			if err != nil {
				t.Fatal(err)
			}
			var found bool
			for _, d := range docs {
				found = found || strings.Contains(d.Content, "marine biologist in Lisbon")
			}
			if !found {
				t.Fatalf("retriever lacks the fact: %v", docs)
			}
		})
	}
}
