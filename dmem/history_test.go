package dmem

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/memory"
	"github.com/tmc/langchaingo/schema"
)

// The history receives every step of the transcript in order; documents
// are not part of it.
func TestChatHistoryMirrorsTheTranscript(t *testing.T) {
	h := memory.NewChatMessageHistory()
	m := newMemory(t, option.WithTokenBudget(60), option.WithChatHistory(h))
	save(t, m, "My sister Priya is a marine biologist in Lisbon.", "What a job!")
	save(t, m, "It rained all day.", "")
	if err := m.Observe(bg, engram.Step{Kind: engram.StepToolCall, Text: `weather({"city":"Lisbon"})`}); err != nil {
		t.Fatal(err)
	}
	if err := m.Observe(bg, engram.Step{Kind: engram.StepToolResult, Text: "Sunny.", Reward: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.AddDocuments(bg, []schema.Document{{PageContent: "A manual page about boats."}}); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		save(t, m, fmt.Sprintf("Filler turn %d about nothing much.", i), "Okay.")
	}
	got, err := h.Messages(bg)
	if err != nil {
		t.Fatal(err)
	}
	want := []llms.ChatMessage{
		llms.HumanChatMessage{Content: "My sister Priya is a marine biologist in Lisbon."},
		llms.AIChatMessage{Content: "What a job!"},
		llms.HumanChatMessage{Content: "It rained all day."},
		llms.AIChatMessage{Content: `weather({"city":"Lisbon"})`},
		llms.ToolChatMessage{Content: "Sunny."},
	}
	for i := range 8 {
		want = append(want, llms.HumanChatMessage{Content: fmt.Sprintf("Filler turn %d about nothing much.", i)}, llms.AIChatMessage{Content: "Okay."})
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("history:\n%v\nwant\n%v", got, want)
	}
	if h := load(t, m, "What does Priya do?"); len(h) == 0 || strings.Count(h, "\n")+1 >= len(want) {
		t.Fatalf("the load shows %d lines of a %d-message transcript: the memory should choose", strings.Count(h, "\n")+1, len(want))
	}

	if err := m.Clear(bg); err != nil {
		t.Fatal(err)
	}
	if got, _ := h.Messages(bg); len(got) != 0 || m.Stats().Steps != 0 {
		t.Fatalf("after Clear the history holds %d messages, the memory %d steps", len(got), m.Stats().Steps)
	}
}

// failingHistory fails every write from the failAt-th on, and Clear when
// told to.
type failingHistory struct {
	*memory.ChatMessageHistory
	failAt, writes int
	failClear      bool
}

var errHistory = errors.New("history down")

func (f *failingHistory) AddMessage(ctx context.Context, msg llms.ChatMessage) error {
	f.writes++
	if f.failAt > 0 && f.writes >= f.failAt {
		return errHistory
	}
	return f.ChatMessageHistory.AddMessage(ctx, msg)
}

func (f *failingHistory) Clear(ctx context.Context) error {
	if f.failClear {
		return errHistory
	}
	return f.ChatMessageHistory.Clear(ctx)
}

// A failed history write fails the step, and the memory records nothing of
// it; a closed memory writes nothing to the history.
func TestChatHistoryFailureRecordsNothing(t *testing.T) {
	h := &failingHistory{ChatMessageHistory: memory.NewChatMessageHistory()}
	m := newMemory(t, option.WithChatHistory(h))
	save(t, m, "Priya lives in Lisbon.", "Nice.")
	steps := m.Stats().Steps

	h.failAt = h.writes + 2 // the reply's write fails
	err := m.SaveContext(bg, map[string]any{"input": "The code is 4471."}, map[string]any{"output": "Noted."})
	if !errors.Is(err, errHistory) {
		t.Fatalf("SaveContext gave %v, want the history's error", err)
	}
	if m.Stats().Steps != steps || strings.Contains(load(t, m, "code"), "4471") {
		t.Fatalf("after a failed history write the memory took %d steps", m.Stats().Steps-steps)
	}
	if err := m.Observe(bg, engram.Step{Kind: engram.StepToolError, Text: "timeout"}); !errors.Is(err, errHistory) || m.Stats().Steps != steps {
		t.Fatalf("Observe gave %v and took %d steps", err, m.Stats().Steps-steps)
	}

	h.failAt, h.failClear = 0, true
	if err := m.Clear(bg); !errors.Is(err, errHistory) || m.Stats().Steps != steps {
		t.Fatalf("Clear gave %v and left %d steps of %d; want the history's error and nothing forgotten", err, m.Stats().Steps, steps)
	}

	h.failClear = false
	before, _ := h.Messages(bg)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := m.SaveContext(bg, map[string]any{"input": "late"}, map[string]any{"output": "turn"}); !errors.Is(err, engram.ErrClosed) {
		t.Fatalf("SaveContext after Close gave %v", err)
	}
	if err := m.Clear(bg); !errors.Is(err, engram.ErrClosed) {
		t.Fatalf("Clear after Close gave %v", err)
	}
	if after, _ := h.Messages(bg); len(after) != len(before) {
		t.Fatalf("a closed memory changed the history from %d to %d messages", len(before), len(after))
	}
}

// Concurrent saves reach the history whole and in order: each turn's
// reply right after it, each writer's turns in its order.
func TestChatHistoryOrderUnderConcurrency(t *testing.T) {
	h := memory.NewChatMessageHistory()
	m := newMemory(t, option.WithChatHistory(h))
	var wg sync.WaitGroup
	const writers, turns = 4, 15
	for w := range writers {
		wg.Go(func() {
			for i := range turns {
				in := map[string]any{"input": fmt.Sprintf("writer %d turn %d", w, i)}
				if err := m.SaveContext(bg, in, map[string]any{"output": fmt.Sprintf("reply %d %d", w, i)}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	msgs, err := h.Messages(bg)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2*writers*turns {
		t.Fatalf("history holds %d messages, want %d", len(msgs), 2*writers*turns)
	}
	next := make([]int, writers)
	for k := 0; k < len(msgs); k += 2 {
		var w, i int
		if _, err := fmt.Sscanf(msgs[k].GetContent(), "writer %d turn %d", &w, &i); err != nil || i != next[w] {
			t.Fatalf("message %d is %q, want writer %d's turn %d", k, msgs[k].GetContent(), w, next[w])
		}
		if r := msgs[k+1].GetContent(); r != fmt.Sprintf("reply %d %d", w, i) {
			t.Fatalf("message %d is %q, want the reply to %q", k+1, r, msgs[k].GetContent())
		}
		next[w]++
	}
}
