package ratedistortion

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/memory"
)

// The history receives every message in order, while loads stay within
// the budget and pick what they show.
func TestChatHistoryMirrorsTheTranscript(t *testing.T) {
	ctx := context.Background()
	h := memory.NewChatMessageHistory()
	b := newBuffer(t, option.WithTokenBudget(40), option.WithChatHistory(h))
	save(t, b, "My sister Priya is a marine biologist in Lisbon.", "What a job!")
	save(t, b, "It rained all day.", "") // an empty reply is not stored, nor mirrored
	call := llms.AIChatMessage{ToolCalls: []llms.ToolCall{{ID: "c1", FunctionCall: &llms.FunctionCall{Name: "weather", Arguments: "{}"}}}}
	result := llms.ToolChatMessage{ID: "c1", Content: "Sunny."}
	if err := b.AddMessages(ctx, call, result); err != nil {
		t.Fatal(err)
	}
	if err := b.Observe(ctx, engram.Step{Kind: engram.StepToolError, Text: "timeout", Reward: -1}); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		save(t, b, fmt.Sprintf("Filler turn %d.", i), "Okay.")
	}

	got, err := h.Messages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []llms.ChatMessage{
		llms.HumanChatMessage{Content: "My sister Priya is a marine biologist in Lisbon."},
		llms.AIChatMessage{Content: "What a job!"},
		llms.HumanChatMessage{Content: "It rained all day."},
		call, result,
		llms.ToolChatMessage{Content: "timeout"}, // a tool error is a tool line (memvars.Step)
	}
	for i := range 10 {
		want = append(want, llms.HumanChatMessage{Content: fmt.Sprintf("Filler turn %d.", i)}, llms.AIChatMessage{Content: "Okay."})
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("history:\n%v\nwant\n%v", got, want)
	}
	if b.Len() != len(want) {
		t.Fatalf("the buffer holds %d units, the history %d messages", b.Len(), len(want))
	}
	load(t, b, "What does Priya do?")
	if x, _ := b.Explain(); x.Tokens > 40 {
		t.Fatalf("a load with a history returned %d tokens, over the budget of 40", x.Tokens)
	}

	if err := b.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := h.Messages(ctx); len(got) != 0 || b.Len() != 0 {
		t.Fatalf("after Clear the history holds %d messages, the buffer %d units", len(got), b.Len())
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

func (f *failingHistory) AddMessage(ctx context.Context, m llms.ChatMessage) error {
	f.writes++
	if f.failAt > 0 && f.writes >= f.failAt {
		return errHistory
	}
	return f.ChatMessageHistory.AddMessage(ctx, m)
}

func (f *failingHistory) Clear(ctx context.Context) error {
	if f.failClear {
		return errHistory
	}
	return f.ChatMessageHistory.Clear(ctx)
}

// A failed history write fails the save, and the buffer stores nothing of
// it: the two never disagree without an error saying so.
func TestChatHistoryFailureStoresNothing(t *testing.T) {
	ctx := context.Background()
	h := &failingHistory{ChatMessageHistory: memory.NewChatMessageHistory()}
	b := newBuffer(t, option.WithChatHistory(h))
	save(t, b, "Priya lives in Lisbon.", "Nice.")

	h.failAt = h.writes + 2 // the reply's write fails
	err := b.SaveContext(ctx, map[string]any{"input": "The code is 4471."}, map[string]any{"output": "Noted."})
	if !errors.Is(err, errHistory) {
		t.Fatalf("SaveContext gave %v, want the history's error", err)
	}
	if b.Len() != 2 {
		t.Fatalf("after a failed history write the buffer holds %d units, want the 2 before it", b.Len())
	}
	if msgs, _ := h.Messages(ctx); len(msgs) != 3 {
		t.Fatalf("the history holds %d messages, want the 2 before and the one written before the failure", len(msgs))
	}
	if err := b.Observe(ctx, engram.Step{Text: "a step"}); !errors.Is(err, errHistory) || b.Len() != 2 {
		t.Fatalf("Observe gave %v and left %d units", err, b.Len())
	}

	h.failAt, h.failClear = 0, true
	if err := b.Clear(ctx); !errors.Is(err, errHistory) || b.Len() != 2 {
		t.Fatalf("Clear gave %v and left %d units; want the history's error and nothing forgotten", err, b.Len())
	}
}

// Concurrent saves reach the history in the order they reach the pool.
func TestChatHistoryOrderUnderConcurrency(t *testing.T) {
	ctx := context.Background()
	h := memory.NewChatMessageHistory()
	b := newBuffer(t, option.WithChatHistory(h))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 25 {
				in := map[string]any{"input": fmt.Sprintf("writer %d turn %d", w, i)}
				if err := b.SaveContext(ctx, in, map[string]any{"output": fmt.Sprintf("reply %d/%d", w, i)}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	msgs, err := h.Messages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	us := b.Units()
	if len(msgs) != len(us) {
		t.Fatalf("history %d messages, buffer %d units", len(msgs), len(us))
	}
	for i, u := range us {
		if msgs[i].GetContent() != u.Text {
			t.Fatalf("message %d: history %q, buffer %q", i, msgs[i].GetContent(), u.Text)
		}
	}
}

func TestTenantsRefuseOneChatHistory(t *testing.T) {
	_, err := NewTenants(option.WithChatHistory(memory.NewChatMessageHistory()))
	if !errors.Is(err, engram.ErrInvalidOption) {
		t.Fatalf("NewTenants with a chat history gave %v", err)
	}
}
