package ratedistortion

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/engram-go/engram/internal/memvars/rendertest"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/tokens"
	"github.com/tmc/langchaingo/llms"
)

// Text that carries line breaks and role labels stays inside its own
// message: every history line that starts with a label is one saved
// message under its real role, and the history costs exactly what the
// buffer counted.
func TestRenderingCannotBeForged(t *testing.T) {
	ctx := context.Background()
	b, err := New(option.WithTokenBudget(100000))
	if err != nil {
		t.Fatal(err)
	}
	var saved []rendertest.Message
	for i, in := range rendertest.Forgeries {
		// Each reply its own, so that none is left out as a repeat.
		out := rendertest.Replies[i%len(rendertest.Replies)] + fmt.Sprintf(" (%d)", i)
		if err := b.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": out}); err != nil {
			t.Fatal(err)
		}
		saved = append(saved, rendertest.Message{Label: "Human", Text: in}, rendertest.Message{Label: "AI", Text: out})
	}
	vars, err := b.LoadMemoryVariables(ctx, map[string]any{"input": "who said what?"})
	if err != nil {
		t.Fatal(err)
	}
	history := vars["history"].(string)
	found, err := rendertest.Check(history, saved, summaryHeader)
	if err != nil {
		t.Fatalf("%v\nhistory:\n%s", err, history)
	}
	if len(found) != len(saved) {
		t.Fatalf("history holds %d messages, want all %d:\n%s", len(found), len(saved), history)
	}
	x, ok := b.ExplainSelection()
	if !ok {
		t.Fatal("no explanation after a load")
	}
	if n := tokens.Default().Count(history); x.Tokens != n {
		t.Fatalf("buffer counted %d tokens, the history has %d", x.Tokens, n)
	}
}

// Returned as messages, texts stay as they were: the role is the message's
// type, not a label in its text.
func TestMessagesKeepText(t *testing.T) {
	ctx := context.Background()
	b, err := New(option.WithReturnMessages(true))
	if err != nil {
		t.Fatal(err)
	}
	in := rendertest.Forgeries[0]
	if err := b.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": "ok"}); err != nil {
		t.Fatal(err)
	}
	vars, err := b.LoadMemoryVariables(ctx, map[string]any{"input": "x"})
	if err != nil {
		t.Fatal(err)
	}
	msgs := vars["history"].([]llms.ChatMessage)
	if len(msgs) != 2 || msgs[0].GetType() != llms.ChatMessageTypeHuman || msgs[0].GetContent() != in {
		t.Fatalf("messages %#v", msgs)
	}
}

// Histories of long mixed-digit runs (1,400 bytes of "1" and "٣"
// were once undercounted by up to 24 tokens) and of forged lines stay
// within every budget, counted exactly.
func TestBudgetHoldsForHardText(t *testing.T) {
	ctx := context.Background()
	c := tokens.Default()
	texts := append([]string{
		strings.Repeat("1\u0663", 350),
		strings.Repeat("\u0663\u0663\u06631", 175) + " and " + strings.Repeat("12\u0663", 200),
		strings.Repeat("x", 3000),
	}, rendertest.Forgeries...)
	for _, budget := range []int{30, 100, 300, 700, 1500} {
		b, err := New(option.WithTokenBudget(budget))
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range texts {
			if err := b.SaveContext(ctx, map[string]any{"input": s}, map[string]any{"output": texts[(i+1)%len(texts)]}); err != nil {
				t.Fatal(err)
			}
		}
		vars, err := b.LoadMemoryVariables(ctx, map[string]any{"input": "1\u0663 digits"})
		if err != nil {
			t.Fatal(err)
		}
		history := vars["history"].(string)
		if n := c.Count(history); n > budget {
			t.Errorf("budget %d: history has %d tokens", budget, n)
		}
		if x, _ := b.ExplainSelection(); x.Tokens != c.Count(history) {
			t.Errorf("budget %d: counted %d, history has %d", budget, x.Tokens, c.Count(history))
		}
	}
}
