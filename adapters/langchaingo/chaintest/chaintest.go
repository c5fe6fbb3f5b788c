package chaintest

import (
	"context"
	"strings"
	"testing"

	"github.com/engram-go/engram/adapters/langchaingo/memorytest"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/prompts"
	"github.com/tmc/langchaingo/schema"
)

// The fact the user states first, and what must come back later.
const (
	fact     = "My sister Priya is a marine biologist in Lisbon."
	factPart = "marine biologist in Lisbon"
)

// Run runs every check, each on a new memory from newMemory.
func Run(t *testing.T, newMemory func(t *testing.T) schema.Memory) {
	t.Run("Conversation", func(t *testing.T) { Conversation(t, newMemory(t)) })
	t.Run("LLMChain", func(t *testing.T) { LLMChain(t, newMemory(t)) })
	t.Run("Executor", func(t *testing.T) { Executor(t, newMemory(t)) })
	t.Run("Clear", func(t *testing.T) { memorytest.Clear(t, newMemory(t)) })
}

// Conversation checks m in chains.NewConversation.
func Conversation(t *testing.T, m schema.Memory) {
	llm := memorytest.NewRecorder("Nice!", "Sure.", "She works in Lisbon.")
	chain := chains.NewConversation(llm, m)
	turns(t, chain, llm, fact, "Tell me a joke.", "Where does Priya work?")
}

// LLMChain checks m as the memory of a chains.NewLLMChain.
func LLMChain(t *testing.T, m schema.Memory) {
	llm := memorytest.NewRecorder("Nice!", "Sure.", "She works in Lisbon.")
	key := m.GetMemoryKey(context.Background())
	prompt := prompts.NewPromptTemplate("Earlier:\n{{."+key+"}}\nHuman: {{.input}}\nAI:", []string{key, "input"})
	chain := chains.NewLLMChain(llm, prompt)
	chain.Memory = m
	turns(t, chain, llm, fact, "Tell me a joke.", "Where does Priya work?")
}

// Executor checks m as the memory of an agents.Executor run through
// chains.Run with agents.WithMemory, with a conversational agent whose
// prompt shows the history.
func Executor(t *testing.T, m schema.Memory) {
	const final = "Thought: Do I need to use a tool? No\nAI: "
	llm := memorytest.NewRecorder(final+"Nice!", final+"Sure.", final+"She works in Lisbon.")
	if key := m.GetMemoryKey(context.Background()); key != "history" {
		t.Skipf("the conversational agent's prompt reads \"history\", memory key is %q", key)
	}
	agent := agents.NewConversationalAgent(llm, nil)
	exec := agents.NewExecutor(agent, agents.WithMemory(m))
	turns(t, exec, llm, fact, "Tell me a joke.", "Where does Priya work?")
}

// turns runs the inputs through chain in order and checks that the last
// prompt holds the fact said first.
func turns(t *testing.T, chain chains.Chain, llm *memorytest.Recorder, inputs ...string) {
	t.Helper()
	ctx := context.Background()
	for i, in := range inputs {
		if _, err := chains.Run(ctx, chain, in); err != nil {
			t.Fatalf("turn %d: %v", i+1, err)
		}
	}
	if p := llm.Last(); !strings.Contains(p, factPart) {
		t.Fatalf("the model's last prompt lacks the first turn's fact %q:\n%s", factPart, p)
	}
}
