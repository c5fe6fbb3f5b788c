package langchaingo

import (
	"context"
	"fmt"
	"strings"

	"github.com/engram-go/engram"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

// Retriever is a schema.Retriever over a memory: a query loads the memory
// and each remembered message becomes a document, in the memory's order.
type Retriever struct {
	// Memory is loaded with the query.
	Memory schema.Memory
	// InputKey is the key the query is passed under; "" means "input".
	InputKey string
}

var _ schema.Retriever = Retriever{}

// GetRelevantDocuments returns what m keeps for query as documents.
func (r Retriever) GetRelevantDocuments(ctx context.Context, query string) ([]schema.Document, error) {
	key := r.InputKey
	if key == "" {
		key = "input"
	}
	return Documents(ctx, r.Memory, map[string]any{key: query})
}

// Documents loads m with inputs and returns what it keeps as documents: one
// per chat message (metadata "role": the message type) when the memory
// returns messages, one per labelled line when it returns a string ("role":
// the line's label, such as "Human"); lines without a label ("Word: ")
// continue the message before them. A value of another type
// gives an error wrapping [engram.ErrInvalidInput].
func Documents(ctx context.Context, m schema.Memory, inputs map[string]any) ([]schema.Document, error) {
	vars, err := m.LoadMemoryVariables(ctx, inputs)
	if err != nil {
		return nil, fmt.Errorf("langchaingo: load: %w", err)
	}
	var docs []schema.Document
	switch v := vars[m.GetMemoryKey(ctx)].(type) {
	case nil:
	case []llms.ChatMessage:
		for _, msg := range v {
			docs = append(docs, schema.Document{
				PageContent: msg.GetContent(),
				Metadata:    map[string]any{"role": string(msg.GetType())},
			})
		}
	case string:
		for line := range strings.Lines(v) {
			line = strings.TrimRight(line, "\r\n")
			role, _, labelled := strings.Cut(line, ": ")
			labelled = labelled && role != "" && len(role) <= 32 && !strings.ContainsAny(role, " \t")
			if !labelled && len(docs) > 0 {
				// A message that spans lines continues until the next label.
				docs[len(docs)-1].PageContent += "\n" + line
				continue
			}
			if strings.TrimSpace(line) == "" {
				continue
			}
			if !labelled {
				role = ""
			}
			docs = append(docs, schema.Document{PageContent: line, Metadata: map[string]any{"role": role}})
		}
	default:
		return nil, fmt.Errorf("langchaingo: memory value is %T, want string or []llms.ChatMessage: %w", v, engram.ErrInvalidInput)
	}
	return docs, nil
}
