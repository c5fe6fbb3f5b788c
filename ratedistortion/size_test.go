package ratedistortion

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/memory"
)

// TestMaxMessageBytes checks that a message over the limit is refused with
// ErrTooLarge, the whole call with it, before the chat history is written.
func TestMaxMessageBytes(t *testing.T) {
	h := memory.NewChatMessageHistory()
	b := newBuffer(t, option.WithMaxMessageBytes(64), option.WithChatHistory(h))
	ctx := context.Background()
	err := b.AddMessages(ctx, llms.HumanChatMessage{Content: "short"}, llms.AIChatMessage{Content: strings.Repeat("x", 65)})
	if !errors.Is(err, engram.ErrTooLarge) || !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("AddMessages = %v, want ErrTooLarge", err)
	}
	if msgs, _ := h.Messages(ctx); b.Len() != 0 || len(msgs) != 0 {
		t.Fatalf("%d units and %d history messages stored, want none", b.Len(), len(msgs))
	}
	// Trailing white space is not stored, and not counted.
	save(t, b, strings.Repeat("y", 64)+"   \n", "ok")
}
