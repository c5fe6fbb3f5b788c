package devset

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/memory"
)

func TestRead(t *testing.T) {
	turns, qs, err := Read("testdata/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Ana: I adopted a beagle called Rex.", "Ben: Lovely, how old is he?", "Ana: Rex turned two last week."}
	if !slices.Equal(turns, want) {
		t.Errorf("turns %q, want %q", turns, want)
	}
	// Category 5 is left out, and evidence not among the turns dropped.
	if len(qs) != 2 || qs[0].Text != "What breed is Rex?" || !slices.Equal(qs[1].Evidence, want[2:]) {
		t.Errorf("questions %+v", qs)
	}
	if _, _, err := Read("testdata/missing.json"); !errors.Is(err, ErrNoFile) {
		t.Errorf("a missing file: %v, want ErrNoFile", err)
	}
}

// Grown lines are new, differ beyond their number, and keep the real ones
// first.
func TestGrow(t *testing.T) {
	turns, _, err := Read("testdata/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	out := Grow(turns, 20)
	if len(out) != 20 || !slices.Equal(out[:3], turns) {
		t.Fatalf("grown to %d lines, starting %q", len(out), out[:3])
	}
	seen := map[string]bool{}
	for _, l := range out[3:] {
		body := l[:strings.LastIndex(l, " (")]
		if slices.Contains(turns, l) || !strings.HasSuffix(l, ")") {
			t.Errorf("grown line %q", l)
		}
		seen[body] = true
	}
	if len(seen) < 6 {
		t.Errorf("%d distinct grown lines without their numbers, of 17", len(seen))
	}
	if got := Grow(nil, 5); len(got) != 0 {
		t.Errorf("grown from nothing: %q", got)
	}
	if got := Grow(turns, 2); !slices.Equal(got, turns[:2]) {
		t.Errorf("the first 2: %q", got)
	}
}

// A memory that holds every line recalls all the evidence; one that holds
// none, none of it.
func TestRecall(t *testing.T) {
	ctx := context.Background()
	turns, qs, err := Read("testdata/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	m := memory.NewConversationBuffer(memory.WithHumanPrefix("Ana"), memory.WithAIPrefix("Ben"))
	if r, err := Recall(ctx, m, qs); err != nil || r != 0 {
		t.Fatalf("empty memory: recall %v, %v; want 0", r, err)
	}
	for _, l := range turns {
		if err := m.ChatHistory.AddUserMessage(ctx, strings.TrimPrefix(l, "Ana: ")); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Recall(ctx, m, qs)
	if err != nil || r != 1 {
		t.Fatalf("a memory holding every line: recall %v, %v; want 1", r, err)
	}
	if _, err := Recall(ctx, m, nil); err == nil {
		t.Error("recall over no questions gave no error")
	}
}
