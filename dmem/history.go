package dmem

import (
	"context"
	"fmt"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/memvars"
)

// mirror adds the transcript's drafts to the chat history
// ([option.WithChatHistory]), in order, before the memory records them. The
// caller holds m.seqMu, so that concurrent steps reach the history in the
// order they take their sequence numbers. A memory that will refuse the
// steps (closed, or embedding in another dimension) writes nothing: the
// refusal follows.
func (m *Memory) mirror(ctx context.Context, ds []draft) error {
	h := m.opts.Chat
	if h == nil {
		return nil
	}
	m.mu.RLock()
	refuse := m.closed || m.st.Dim != 0 && len(ds[0].vec) != m.st.Dim
	m.mu.RUnlock()
	if refuse {
		return nil
	}
	for i, d := range ds {
		if !d.chat {
			continue
		}
		if err := h.AddMessage(ctx, memvars.Message(d.role, d.text, "")); err != nil {
			return fmt.Errorf("dmem: chat history: message %d of %d: %w", i+1, len(ds), err)
		}
	}
	return nil
}

// clearChat clears the chat history before the memory is cleared, unless
// the memory is closed. The caller holds m.seqMu.
func (m *Memory) clearChat(ctx context.Context) error {
	m.mu.RLock()
	closed := m.closed
	m.mu.RUnlock()
	if closed {
		return fmt.Errorf("dmem: clear: %w", engram.ErrClosed)
	}
	if err := m.opts.Chat.Clear(ctx); err != nil {
		return fmt.Errorf("dmem: clear the chat history: %w", err)
	}
	return nil
}
