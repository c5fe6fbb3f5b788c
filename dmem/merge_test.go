package dmem

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/schema"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
)

// sameEmbedder gives every text the same vector, so that the cosine half of
// the near-duplicate test always passes and the words decide alone.
type sameEmbedder struct{}

func (sameEmbedder) EmbedDocuments(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = []float32{1, 0, 0, 0}
	}
	return out, nil
}

func (sameEmbedder) EmbedQuery(context.Context, string) ([]float32, error) {
	return []float32{1, 0, 0, 0}, nil
}

var mergeCases = []struct {
	name, first, second string
	merged              bool
}{
	{"another account", "tool_result: exported refunds for account 4821: status ok, 17 rows",
		"tool_result: exported refunds for account 7730: status ok, 17 rows", false},
	{"another row count", "tool_result: exported refunds for account 4821: status ok, 17 rows",
		"tool_result: exported refunds for account 4821: status ok, 18 rows", false},
	{"another PIN", "my PIN is 1234", "my PIN is 9876", false},
	{"another name", "My sister Priya lives in Lisbon.", "My sister Keiko lives in Lisbon.", false},
	{"another place", "My sister Priya lives in Lisbon.", "My sister Priya lives in Porto.", false},
	{"another version", "upgraded the service to v2.3.1", "upgraded the service to v2.4.0", false},
	{"negated", "the integration tests pass on main", "the integration tests don't pass on main", false},
	{"yes and no", "Yes.", "No.", false},
	{"another content word", "the deploy to staging failed at the migration step",
		"the deploy to production failed at the migration step", false},
	{"repeat", "tool_result: exported refunds for account 4821: status ok, 17 rows",
		"tool_result: exported refunds for account 4821: status ok, 17 rows", true},
	{"punctuation and case", "My PIN is 1234.", "my pin is 1234!", true},
	{"stop words", "My sister Priya lives in Lisbon.", "my sister Priya, she lives in Lisbon", true},
	{"plural", "Remember: the staging database password rotates every Monday.",
		"remember, the staging database passwords rotate every Monday", true},
}

// A step merges into a stored one only when its words say the same thing:
// the same sentence with another number, name or content word stays
// apart however close the vectors; a repeat that differs in case,
// punctuation or stop words merges.
func TestMergeNeedsSameWords(t *testing.T) {
	for _, tc := range mergeCases {
		t.Run(tc.name, func(t *testing.T) {
			m := newMemory(t, option.WithEmbedder(sameEmbedder{}))
			for _, s := range []string{tc.first, tc.second} {
				if err := m.Observe(bg, engram.Step{Kind: engram.StepToolResult, Text: s}); err != nil {
					t.Fatal(err)
				}
			}
			m.mu.RLock()
			second := m.gone[idOf(1)]
			m.mu.RUnlock()
			if got := second != nil && second.Route == RouteMerged; got != tc.merged {
				t.Errorf("%q after %q: merged %v, want %v", tc.second, tc.first, got, tc.merged)
			}
		})
	}
}

// The same holds with the default embedder, whose vectors barely tell
// one number or name from another.
func TestMergeNeedsSameWordsDefaultEmbedder(t *testing.T) {
	for _, tc := range mergeCases {
		t.Run(tc.name, func(t *testing.T) {
			m := newMemory(t)
			for _, s := range []string{tc.first, tc.second} {
				if err := m.Observe(bg, engram.Step{Kind: engram.StepToolResult, Text: s}); err != nil {
					t.Fatal(err)
				}
			}
			m.mu.RLock()
			second := m.gone[idOf(1)]
			m.mu.RUnlock()
			if got := second != nil && second.Route == RouteMerged; got && !tc.merged {
				t.Errorf("%q after %q: merged", tc.second, tc.first)
			}
		})
	}
}

// A repeat merges into the unit it repeats, not into a nearer one that
// differs in a number.
func TestMergeFindsTheRepeat(t *testing.T) {
	m := newMemory(t, option.WithEmbedder(sameEmbedder{}))
	texts := []string{"exported refunds for account 4821", "exported refunds for account 7730",
		"exported refunds for account 5512"}
	// Added, so that the gate keeps them though their vectors are one.
	for _, s := range texts {
		if _, err := m.AddDocuments(bg, []schema.Document{{PageContent: s}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Observe(bg, engram.Step{Kind: engram.StepToolResult, Text: "exported refunds for account 7730"}); err != nil {
		t.Fatal(err)
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if u := m.gone[idOf(3)]; u == nil || u.Route != RouteMerged {
		t.Fatalf("the repeat of %q was not merged", texts[1])
	}
	for i, want := range []int32{0, 1, 0} {
		switch u := m.byID[idOf(int64(i))]; {
		case u == nil:
			t.Errorf("%q is not resident", texts[i])
		case u.Merged != want:
			t.Errorf("%q merged %d steps, want %d", texts[i], u.Merged, want)
		}
	}
}

// Statements that differ only in their numbers are each news: none is
// merged away or dropped as a repeat of its neighbours, whose words and
// word vectors are nearly the same ("Fact 41 … 7041" beside "Fact 14 …
// 7014" and "Fact 40 … 7040").
func TestNumberedFactsAreEachKept(t *testing.T) {
	m := newMemory(t, WithShortTerm(2000))
	const n = 60
	for i := range n {
		save(t, m, fmt.Sprintf("Fact %d: the locker code of desk %d is %d.", i, i, 7000+i), "Noted.")
	}
	held := make(map[string]bool)
	for _, u := range m.Units() {
		held[u.Text] = true
	}
	for i := range n {
		if in := fmt.Sprintf("Fact %d: the locker code of desk %d is %d.", i, i, 7000+i); !held[in] {
			t.Errorf("%q is not held", in)
		}
	}
}

// A tool call given to Observe is kept with the result that answers it: it
// does not merge into the question that asked for it, whose words it
// repeats, and a load that shows the result shows the call too.
func TestObservedToolCallKeptWithItsResult(t *testing.T) {
	ctx := context.Background()
	m := newMemory(t, option.WithTokenBudget(500))
	save(t, m, "weather in Lyon?", "checking")
	if err := m.Observe(ctx, engram.Step{Kind: engram.StepToolCall, Text: "weather(Lyon)"}); err != nil {
		t.Fatal(err)
	}
	if err := m.Observe(ctx, engram.Step{Kind: engram.StepToolResult, Text: "14C"}); err != nil {
		t.Fatal(err)
	}
	out, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "Lyon"})
	if err != nil {
		t.Fatal(err)
	}
	h := out["history"].(string)
	if !strings.Contains(h, "14C") || !strings.Contains(h, "weather(Lyon)") {
		t.Errorf("the result and its call are not both in the load:\n%s", h)
	}
	var call, result engram.Unit
	for _, u := range m.Units() {
		switch u.Role {
		case engram.RoleToolCall:
			call = u
		case engram.RoleToolResult:
			result = u
		}
	}
	if call.Text != "weather(Lyon)" || call.Group != result.Group {
		t.Errorf("the call is %q in group %d, its result in group %d", call.Text, call.Group, result.Group)
	}
}

// heldResultsHaveCalls fails t for every tool result m holds without the
// call it answers.
func heldResultsHaveCalls(t *testing.T, m *Memory) {
	t.Helper()
	calls := map[int64]bool{}
	for _, u := range m.Units() {
		if u.Role == engram.RoleToolCall {
			calls[u.Group] = true
		}
	}
	for _, u := range m.Units() {
		if u.Role == engram.RoleToolResult && !calls[u.Group] {
			t.Errorf("result %s %q (group %d) is held without its call", u.ID, u.Text, u.Group)
		}
	}
}

// A call is kept at least as long as its result: one the gate sends to
// the short-term buffer is promoted to core with a result that goes there,
// rather than overwritten while its result stays; and a call made again
// ("weather(Lyon)" twice) is not merged into the first, which would leave
// the second result without it.
func TestToolCallLastsAsLongAsItsResult(t *testing.T) {
	ctx := context.Background()
	observe := func(m *Memory, k engram.StepKind, s string) {
		t.Helper()
		if err := m.Observe(ctx, engram.Step{Kind: k, Text: s}); err != nil {
			t.Fatal(err)
		}
	}
	m := newMemory(t, WithShortTerm(3))
	for i := range 40 {
		save(t, m, fmt.Sprintf("what does sensor %d read in room %d?", i, i%17), "let me look")
		observe(m, engram.StepToolCall, fmt.Sprintf("read_sensor(%d)", i))
		observe(m, engram.StepToolResult, fmt.Sprintf("sensor %d reads %d.%d degrees", i, i*7%40, i%10))
	}
	heldResultsHaveCalls(t, m)

	m = newMemory(t, option.WithTokenBudget(20))
	observe(m, engram.StepToolCall, "weather(Lyon)")
	observe(m, engram.StepToolResult, "14 degrees and sunny")
	save(t, m, "and tomorrow?", "checking again")
	observe(m, engram.StepToolCall, "weather(Lyon)")
	observe(m, engram.StepToolResult, "3 degrees and snow")
	heldResultsHaveCalls(t, m)
	out, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "snow"})
	if err != nil {
		t.Fatal(err)
	}
	if h := out["history"].(string); strings.Contains(h, "snow") && !strings.Contains(h, "weather(Lyon)") {
		t.Errorf("the second result is shown without its call:\n%s", h)
	}
}
