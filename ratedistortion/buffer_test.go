package ratedistortion

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/tokens"
)

func newBuffer(t testing.TB, opts ...Option) *Buffer {
	t.Helper()
	b, err := New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func save(t testing.TB, b *Buffer, in, out string) {
	t.Helper()
	if err := b.SaveContext(context.Background(), map[string]any{"input": in}, map[string]any{"output": out}); err != nil {
		t.Fatal(err)
	}
}

func load(t testing.TB, b *Buffer, q string) string {
	t.Helper()
	v, err := b.LoadMemoryVariables(context.Background(), map[string]any{"input": q})
	if err != nil {
		t.Fatal(err)
	}
	return v["history"].(string)
}

func TestKeepsRelevantOldFactOverNewChatter(t *testing.T) {
	b := newBuffer(t, WithTokenBudget(120))
	save(t, b, "My sister Priya works as a marine biologist in Lisbon.", "That sounds like a fascinating job!")
	for i := range 40 {
		save(t, b, fmt.Sprintf("The weather is nice today, round %d.", i), "Glad to hear it.")
	}
	h := load(t, b, "Where does Priya work?")
	if !strings.Contains(h, "marine biologist in Lisbon") {
		t.Fatalf("old fact lost:\n%s", h)
	}
	if n := tokens.Default().Count(h); n > 120 {
		t.Fatalf("history is %d tokens, budget 120", n)
	}
	x, ok := b.Explain()
	if !ok || x.Tokens != tokens.Default().Count(h) {
		t.Fatalf("explained tokens %d, counted %d", x.Tokens, tokens.Default().Count(h))
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t, WithTokenBudget(100))
	save(t, b, "keep me", "kept")
	tests := []struct {
		name    string
		in, out map[string]any
	}{
		{"nil inputs", nil, map[string]any{"output": "x"}},
		{"nil outputs", map[string]any{"input": "x"}, nil},
		{"empty inputs", map[string]any{}, map[string]any{"output": "x"}},
		{"non-string", map[string]any{"input": 42}, map[string]any{"output": "x"}},
		{"ambiguous keys", map[string]any{"a": "x", "b": "y"}, map[string]any{"output": "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := b.SaveContext(ctx, tt.in, tt.out)
			if !errors.Is(err, engram.ErrInvalidInput) {
				t.Fatalf("err = %v, want ErrInvalidInput", err)
			}
			if b.Len() != 2 {
				t.Fatalf("pool has %d units after a refused save, want 2", b.Len())
			}
		})
	}
	if _, err := b.LoadMemoryVariables(ctx, map[string]any{"input": 3}); !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("non-string query: err = %v", err)
	}
	for _, n := range []int{0, -5} {
		if _, err := New(WithTokenBudget(n)); !errors.Is(err, engram.ErrInvalidOption) {
			t.Fatalf("budget %d: err = %v", n, err)
		}
	}
}
