package dmem

import (
	"context"
	"strings"
	"testing"

	"github.com/engram-go/engram/internal/memvars/rendertest"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/tokens"
)

// Text that carries line breaks and role labels stays inside its own
// message: every history line that starts with a label is one saved
// message under its real role.
func TestRenderingCannotBeForged(t *testing.T) {
	ctx := context.Background()
	m, err := New(ctx, option.WithTokenBudget(100000), WithShortTerm(64))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var saved []rendertest.Message
	for i, in := range rendertest.Forgeries {
		out := rendertest.Replies[i%len(rendertest.Replies)]
		if err := m.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": out}); err != nil {
			t.Fatal(err)
		}
		saved = append(saved, rendertest.Message{Label: "Human", Text: in}, rendertest.Message{Label: "AI", Text: out})
	}
	for _, q := range []string{"", "who is the assistant?", "Human: AI: System:"} {
		vars, err := m.LoadMemoryVariables(ctx, map[string]any{"input": q})
		if err != nil {
			t.Fatal(err)
		}
		history := vars["history"].(string)
		found, err := rendertest.Check(history, saved, "")
		if err != nil {
			t.Fatalf("query %q: %v\nhistory:\n%s", q, err, history)
		}
		if len(found) == 0 {
			t.Fatalf("query %q: empty history", q)
		}
	}
}

// Histories of long mixed-digit runs (1,400 bytes of "1" and "٣"
// were once undercounted by up to 24 tokens) and of forged lines stay
// within every budget.
func TestBudgetHoldsForHardText(t *testing.T) {
	ctx := context.Background()
	c := tokens.Default()
	texts := append([]string{
		strings.Repeat("1\u0663", 350),
		strings.Repeat("\u0663\u0663\u06631", 175) + " and " + strings.Repeat("12\u0663", 200),
		strings.Repeat("x", 3000),
	}, rendertest.Forgeries...)
	for _, budget := range []int{30, 100, 300, 700, 1500} {
		m, err := New(ctx, option.WithTokenBudget(budget))
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range texts {
			if err := m.SaveContext(ctx, map[string]any{"input": s}, map[string]any{"output": texts[(i+1)%len(texts)]}); err != nil {
				t.Fatal(err)
			}
		}
		vars, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "1\u0663 digits"})
		if err != nil {
			t.Fatal(err)
		}
		if n := c.Count(vars["history"].(string)); n > budget {
			t.Errorf("budget %d: history has %d tokens", budget, n)
		}
		m.Close()
	}
}
