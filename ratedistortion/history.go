package ratedistortion

import (
	"context"
	"fmt"

	"github.com/tmc/langchaingo/llms"
)

// mirror adds msgs to the chat history ([option.WithChatHistory]), in order. The
// caller holds b.hist, so that concurrent saves reach the history in the
// order they reach the pool.
func (b *Buffer) mirror(ctx context.Context, msgs []llms.ChatMessage) error {
	for i, m := range msgs {
		if err := b.opts.Chat.AddMessage(ctx, m); err != nil {
			return fmt.Errorf("ratedistortion: chat history: message %d of %d: %w", i+1, len(msgs), err)
		}
	}
	return nil
}
