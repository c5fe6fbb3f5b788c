package memorytest

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/schema"
)

// The fact the user states first, and what must come back later.
const (
	fact     = "My sister Priya is a marine biologist in Lisbon."
	factPart = "marine biologist in Lisbon"
)

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
