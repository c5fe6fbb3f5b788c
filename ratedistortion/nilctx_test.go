package ratedistortion

import (
	"context"
	"errors"
	"testing"

	"github.com/engram-go/engram"
	"github.com/tmc/langchaingo/llms"
)

// A nil context is refused with a clear error, never a crash, and costs
// nothing already stored.
func TestNilContext(t *testing.T) {
	var nilCtx context.Context
	b := newBuffer(t)
	save(t, b, "Priya lives in Lisbon.", "Nice.")
	for name, call := range map[string]func() error{
		"SaveContext": func() error {
			return b.SaveContext(nilCtx, map[string]any{"input": "x"}, map[string]any{"output": "y"})
		},
		"AddMessages": func() error { return b.AddMessages(nilCtx, llms.HumanChatMessage{Content: "x"}) },
		"LoadMemoryVariables": func() error {
			_, err := b.LoadMemoryVariables(nilCtx, map[string]any{"input": "Where does Priya live?"})
			return err
		},
	} {
		if err := call(); !errors.Is(err, engram.ErrInvalidInput) {
			t.Errorf("%s(nil context): err = %v, want ErrInvalidInput", name, err)
		}
	}
	if b.Len() != 2 {
		t.Fatalf("%d units after nil-context calls, want the 2 saved", b.Len())
	}
}
