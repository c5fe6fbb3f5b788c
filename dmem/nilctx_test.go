package dmem

import (
	"context"
	"errors"
	"testing"

	"github.com/engram-go/engram"
)

// A nil context is refused with a clear error, never a crash, and costs
// nothing already stored.
func TestNilContext(t *testing.T) {
	var nilCtx context.Context
	if _, err := New(nilCtx); !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("New(nil): err = %v, want ErrInvalidInput", err)
	}
	m := newMemory(t)
	save(t, m, "Priya lives in Lisbon.", "Nice.")
	for name, call := range map[string]func() error{
		"SaveContext": func() error {
			return m.SaveContext(nilCtx, map[string]any{"input": "x"}, map[string]any{"output": "y"})
		},
		"LoadMemoryVariables": func() error {
			_, err := m.LoadMemoryVariables(nilCtx, map[string]any{"input": "Where does Priya live?"})
			return err
		},
		"Observe":          func() error { return m.Observe(nilCtx, engram.Step{Kind: engram.StepMessage, Text: "x"}) },
		"Reward":           func() error { return m.Reward(nilCtx, 1) },
		"SimilaritySearch": func() error { _, err := m.SimilaritySearch(nilCtx, "Priya", 1); return err },
		"Clear":            func() error { return m.Clear(nilCtx) },
	} {
		if err := call(); !errors.Is(err, engram.ErrInvalidInput) {
			t.Errorf("%s(nil context): err = %v, want ErrInvalidInput", name, err)
		}
	}
	vars, err := m.LoadMemoryVariables(bg, map[string]any{"input": "Where does Priya live?"})
	if err != nil || vars["history"] == "" {
		t.Fatalf("after nil-context calls: %v, %v", vars, err)
	}
}

// A cancelled context fails a save or a load with the context's error,
// each layer naming itself once: dmem the operation, nothing else a prefix.
func TestCancelledContext(t *testing.T) {
	m := newMemory(t)
	save(t, m, "Priya lives in Lisbon.", "Nice.")
	ctx, cancel := context.WithCancel(bg)
	cancel()
	for _, c := range []struct {
		name, want string
		call       func() error
	}{
		{"SaveContext", "dmem: embed: context canceled", func() error {
			return m.SaveContext(ctx, map[string]any{"input": "x"}, map[string]any{"output": "y"})
		}},
		{"LoadMemoryVariables", "dmem: embed query: context canceled", func() error {
			_, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "Where does Priya live?"})
			return err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			if !errors.Is(err, context.Canceled) || err.Error() != c.want {
				t.Fatalf("err = %v, want %q wrapping context.Canceled", err, c.want)
			}
		})
	}
}
