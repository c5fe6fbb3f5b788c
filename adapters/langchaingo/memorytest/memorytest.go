package memorytest

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/fake"
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
	t.Run("Clear", func(t *testing.T) { Clear(t, newMemory(t)) })
}

// Conversation checks m in chains.NewConversation.
func Conversation(t *testing.T, m schema.Memory) {
	llm := NewRecorder("Nice!", "Sure.", "She works in Lisbon.")
	chain := chains.NewConversation(llm, m)
	turns(t, chain, llm, fact, "Tell me a joke.", "Where does Priya work?")
}

// LLMChain checks m as the memory of a chains.NewLLMChain.
func LLMChain(t *testing.T, m schema.Memory) {
	llm := NewRecorder("Nice!", "Sure.", "She works in Lisbon.")
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
	llm := NewRecorder(final+"Nice!", final+"Sure.", final+"She works in Lisbon.")
	if key := m.GetMemoryKey(context.Background()); key != "history" {
		t.Skipf("the conversational agent's prompt reads \"history\", memory key is %q", key)
	}
	agent := agents.NewConversationalAgent(llm, nil)
	exec := agents.NewExecutor(agent, agents.WithMemory(m))
	turns(t, exec, llm, fact, "Tell me a joke.", "Where does Priya work?")
}

// Clear checks that Clear forgets.
func Clear(t *testing.T, m schema.Memory) {
	ctx := context.Background()
	if err := m.SaveContext(ctx, map[string]any{"input": fact}, map[string]any{"output": "Nice!"}); err != nil {
		t.Fatal(err)
	}
	if err := m.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	vars, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "Where does Priya work?"})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := vars[m.GetMemoryKey(ctx)].(string); strings.Contains(s, factPart) {
		t.Fatalf("memory still holds the fact after Clear:\n%s", s)
	}
}

// turns runs the inputs through chain in order and checks that the last
// prompt holds the fact said first.
func turns(t *testing.T, chain chains.Chain, llm *Recorder, inputs ...string) {
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

// Recorder is a fake langchaingo model that answers with its responses in
// turn and records every prompt. Unlike llms/fake it is safe for concurrent use.
type Recorder struct {
	mu      sync.Mutex
	llm     *fake.LLM
	prompts []string
}

var _ llms.Model = (*Recorder)(nil)

// NewRecorder returns a model answering responses in turn, cyclically.
func NewRecorder(responses ...string) *Recorder {
	return &Recorder{llm: fake.NewFakeLLM(responses)}
}

// GenerateContent records the text of msgs and returns the next response.
func (r *Recorder) GenerateContent(ctx context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	var b strings.Builder
	for _, m := range msgs {
		for _, p := range m.Parts {
			if tp, ok := p.(llms.TextContent); ok {
				b.WriteString(tp.Text)
			}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.prompts = append(r.prompts, b.String())
	return r.llm.GenerateContent(ctx, msgs, opts...)
}

// Call is GenerateContent with one human message.
func (r *Recorder) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, r, prompt, opts...)
}

// Prompts returns every prompt so far, oldest first.
func (r *Recorder) Prompts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.prompts...)
}

// Last returns the latest prompt, or "".
func (r *Recorder) Last() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.prompts) == 0 {
		return ""
	}
	return r.prompts[len(r.prompts)-1]
}
