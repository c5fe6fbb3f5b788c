package langchaingo

import (
	"context"
	"testing"

	"github.com/tmc/langchaingo/schema"
)

// fixed is a memory that always returns the same history.
type fixed string

func (f fixed) GetMemoryKey(context.Context) string      { return "history" }
func (f fixed) MemoryVariables(context.Context) []string { return []string{"history"} }
func (f fixed) LoadMemoryVariables(context.Context, map[string]any) (map[string]any, error) {
	return map[string]any{"history": string(f)}, nil
}
func (f fixed) SaveContext(context.Context, map[string]any, map[string]any) error { return nil }
func (f fixed) Clear(context.Context) error                                       { return nil }

var _ schema.Memory = fixed("")

func TestDocumentsKeepMultiLineMessages(t *testing.T) {
	docs, err := Documents(context.Background(), fixed("Human: first line\nsecond line\nAI: reply"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 || docs[0].PageContent != "Human: first line\nsecond line" || docs[1].Metadata["role"] != "AI" {
		t.Fatalf("docs = %+v", docs)
	}
}
