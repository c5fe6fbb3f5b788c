package callbacks_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/callbacks"
	"github.com/engram-go/engram/dmem"
	lcb "github.com/tmc/langchaingo/callbacks"
	"github.com/tmc/langchaingo/schema"
)

func newRewarder(t testing.TB, sink engram.RewardSink, opts ...callbacks.Option) *callbacks.Rewarder {
	t.Helper()
	rw, err := callbacks.New(sink, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rw.Close(context.Background()) })
	return rw
}

func flush(t testing.TB, rw *callbacks.Rewarder) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := rw.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestEventsBecomeSteps(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name string
		emit func(ctx context.Context, rw *callbacks.Rewarder)
		want []string
	}{
		{"tool result", func(ctx context.Context, rw *callbacks.Rewarder) {
			rw.HandleChainStart(ctx, map[string]any{"input": "add"})
			rw.HandleAgentAction(ctx, schema.AgentAction{Tool: "calc", ToolInput: "2+2"})
			rw.HandleToolStart(ctx, "2+2")
			rw.HandleToolEnd(ctx, "4")
		}, []string{`observe(tool_result "calc(2+2) → 4" +0.1)`}},
		{"tool error", func(ctx context.Context, rw *callbacks.Rewarder) {
			rw.HandleChainStart(ctx, map[string]any{"input": "add"})
			rw.HandleToolStart(ctx, "x")
			rw.HandleToolError(ctx, boom)
			rw.HandleChainError(ctx, boom)
		}, []string{`observe(tool_error "tool(x) failed: boom" -1.0)`}},
		{"tool without a run", func(ctx context.Context, rw *callbacks.Rewarder) {
			rw.HandleToolStart(ctx, "x")
			rw.HandleToolEnd(ctx, "y")
		}, []string{`observe(tool_result "tool → y" +0.1)`}},
		{"chain error with its input", func(ctx context.Context, rw *callbacks.Rewarder) {
			rw.HandleChainStart(ctx, map[string]any{"input": "book a flight"})
			rw.HandleChainError(ctx, boom)
		}, []string{`observe(chain_error "task \"book a flight\" failed: boom" -1.0)`}},
		{"chain error without start", func(ctx context.Context, rw *callbacks.Rewarder) {
			rw.HandleChainError(ctx, boom)
		}, []string{`observe(chain_error "task failed: boom" -1.0)`}},
		{"chain end forgets", func(ctx context.Context, rw *callbacks.Rewarder) {
			rw.HandleChainStart(ctx, map[string]any{"input": "ok"})
			rw.HandleChainEnd(ctx, nil)
		}, nil},
		{"finish", func(ctx context.Context, rw *callbacks.Rewarder) {
			rw.HandleAgentFinish(ctx, schema.AgentFinish{ReturnValues: map[string]any{"output": "done"}})
		}, []string{"reward(+1.0)"}},
		{"not finished is left to the chain error", func(ctx context.Context, rw *callbacks.Rewarder) {
			rw.HandleAgentFinish(ctx, schema.AgentFinish{ReturnValues: map[string]any{"output": "agent not finished before max iterations"}})
		}, nil},
		{"thumbs down", func(ctx context.Context, rw *callbacks.Rewarder) {
			rw.Feedback(ctx, callbacks.ThumbsDown, "")
		}, []string{"reward(-1.0)"}},
		{"scalar feedback with a note", func(ctx context.Context, rw *callbacks.Rewarder) {
			rw.Feedback(ctx, 0.5, "right city, wrong date")
		}, []string{"reward(+0.5)", `observe(feedback "right city, wrong date" +0.0)`}},
		{"ignored events", func(ctx context.Context, rw *callbacks.Rewarder) {
			rw.HandleText(ctx, "x")
			rw.HandleLLMError(ctx, boom)
			rw.HandleStreamingFunc(ctx, []byte("x"))
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sink := &recorder{}
			rw := newRewarder(t, sink)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tt.emit(ctx, rw)
			flush(t, rw)
			var got []string
			for _, c := range sink.Calls() {
				got = append(got, c.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("sink got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestToolErrorEndingARunIsReportedOnce(t *testing.T) {
	sink := &recorder{}
	rw := newRewarder(t, sink)
	ctx := context.Background()
	boom := errors.New("boom")
	failing := callbacks.WrapTool(toolFunc{"search", func(string) (string, error) { return "", boom }}, rw)

	rw.HandleChainStart(ctx, map[string]any{"input": "outer"})
	rw.HandleChainStart(ctx, map[string]any{"input": "inner", "agent_scratchpad": ""})
	rw.HandleChainEnd(ctx, nil)
	if _, err := failing.Call(ctx, "paris"); !errors.Is(err, boom) {
		t.Fatalf("wrapped tool returned %v, want boom", err)
	}
	rw.HandleChainError(ctx, fmt.Errorf("executor: %w", boom))
	flush(t, rw)
	got := sink.Calls()
	if len(got) != 1 || got[0].Text != "search(paris) failed: boom" {
		t.Fatalf("sink got %v, want the tool error alone", got)
	}
}

func TestInnerChainErrorIsReportedOnce(t *testing.T) {
	sink := &recorder{}
	rw := newRewarder(t, sink)
	ctx := context.Background()
	boom := errors.New("model down")
	rw.HandleChainStart(ctx, map[string]any{"input": "plan a trip"})
	rw.HandleChainStart(ctx, map[string]any{"input": "plan a trip", "agent_scratchpad": ""})
	rw.HandleChainError(ctx, boom)
	rw.HandleChainError(ctx, boom)
	rw.HandleChainStart(ctx, map[string]any{"input": "next run"})
	rw.HandleChainError(ctx, boom)
	flush(t, rw)
	got := sink.Calls()
	want := []string{`task "plan a trip" failed: model down`, `task "next run" failed: model down`}
	if len(got) != 2 || got[0].Text != want[0] || got[1].Text != want[1] {
		t.Fatalf("sink got %v, want %q", got, want)
	}
}

func TestWrapToolErrorsAsObservations(t *testing.T) {
	sink := &recorder{}
	rw := newRewarder(t, sink)
	tl := callbacks.WrapTool(toolFunc{"search", func(string) (string, error) { return "", errors.New("timeout") }}, rw, callbacks.ErrorsAsObservations())
	out, err := tl.Call(context.Background(), "q")
	if err != nil || out != "error: timeout" {
		t.Fatalf("Call = %q, %v; want the error as an observation", out, err)
	}
	if tl.Name() != "search" || tl.Description() != "search things" {
		t.Fatalf("wrapper changed name or description: %q %q", tl.Name(), tl.Description())
	}
	flush(t, rw)
	if got := sink.Calls(); len(got) != 1 || got[0].Kind != engram.StepToolError {
		t.Fatalf("sink got %v, want one tool error", got)
	}
	if callbacks.WrapTool(tl, nil) != tl {
		t.Fatal("WrapTool with a nil handler must return the tool")
	}
}

func TestDeliveryIsFIFO(t *testing.T) {
	sink := &recorder{}
	rw := newRewarder(t, sink, callbacks.WithQueueSize(1000))
	ctx := context.Background()
	for i := range 500 {
		rw.HandleToolEnd(ctx, fmt.Sprint(i))
	}
	flush(t, rw)
	got := sink.Calls()
	if len(got) != 500 {
		t.Fatalf("delivered %d, want 500", len(got))
	}
	for i, c := range got {
		if want := fmt.Sprintf("tool → %d", i); c.Text != want {
			t.Fatalf("call %d is %q, want %q", i, c.Text, want)
		}
	}
}

func TestFullQueueDropsWithoutBlocking(t *testing.T) {
	release := make(chan struct{})
	sink := &recorder{block: release}
	rw := newRewarder(t, sink, callbacks.WithQueueSize(2))
	ctx := context.Background()
	start := time.Now()
	for range 50 {
		rw.HandleToolEnd(ctx, "x")
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("handler blocked for %v on a stuck sink", d)
	}
	st := rw.Stats()
	if st.Dropped < 47 || st.Queued+st.Dropped != 50 {
		t.Fatalf("stats %+v: want at most 3 queued (1 in the sink, 2 waiting) and the rest dropped", st)
	}
	close(release)
	flush(t, rw)
	if st := rw.Stats(); st.Delivered != st.Queued {
		t.Fatalf("after flush %+v: every queued event should be delivered", st)
	}
}

func TestSinkFailuresAreRecoveredAndCounted(t *testing.T) {
	var (
		mu   sync.Mutex
		seen []string
	)
	onErr := func(s engram.Step, err error) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, s.Kind.String()+": "+err.Error())
	}
	ctx := context.Background()

	panicking := &recorder{panic: true}
	rw := newRewarder(t, panicking, callbacks.WithErrorHandler(onErr))
	rw.HandleToolEnd(ctx, "x")
	rw.HandleAgentFinish(ctx, schema.AgentFinish{Log: "done"})
	flush(t, rw)
	if st := rw.Stats(); st.Panicked != 2 || st.Delivered != 0 {
		t.Fatalf("panicking sink: %+v", st)
	}

	failing := &recorder{err: errors.New("disk full")}
	rw = newRewarder(t, failing, callbacks.WithErrorHandler(func(engram.Step, error) { panic("hook too") }))
	rw.HandleToolEnd(ctx, "x")
	flush(t, rw)
	if st := rw.Stats(); st.Failed != 1 {
		t.Fatalf("failing sink: %+v", st)
	}

	rw = newRewarder(t, &recorder{}, callbacks.WithRewardFunc(func(engram.Step) float64 { panic("bad reward") }))
	rw.HandleToolEnd(ctx, "x")
	flush(t, rw)
	if st := rw.Stats(); st.Panicked != 1 {
		t.Fatalf("panicking reward func: %+v", st)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 2 || !strings.Contains(seen[0], "sink panicked: sink exploded") {
		t.Fatalf("error handler saw %q", seen)
	}
}

func TestClose(t *testing.T) {
	ctx := context.Background()
	t.Run("delivers what is queued", func(t *testing.T) {
		sink := &recorder{}
		rw := newRewarder(t, sink)
		for range 10 {
			rw.HandleToolEnd(ctx, "x")
		}
		if err := rw.Close(ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(sink.Calls()); n != 10 {
			t.Fatalf("delivered %d before Close returned, want 10", n)
		}
		rw.HandleToolEnd(ctx, "late")
		if st := rw.Stats(); st.Dropped != 1 || st.Delivered != 10 {
			t.Fatalf("after close: %+v", st)
		}
		if err := rw.Flush(ctx); !errors.Is(err, engram.ErrClosed) {
			t.Fatalf("Flush after Close = %v, want ErrClosed", err)
		}
		if err := rw.Close(ctx); err != nil {
			t.Fatalf("second Close = %v", err)
		}
	})
	t.Run("never started", func(t *testing.T) {
		rw := newRewarder(t, &recorder{})
		if err := rw.Close(ctx); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("gives up on a stuck sink", func(t *testing.T) {
		sink := &recorder{block: make(chan struct{})} // never released
		rw := newRewarder(t, sink, callbacks.WithTimeout(time.Hour))
		for range 5 {
			rw.HandleToolEnd(ctx, "x")
		}
		cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		if err := rw.Close(cctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Close = %v, want deadline exceeded", err)
		}
		// Giving up cancels the stuck call; the rest are dropped.
		deadline := time.Now().Add(5 * time.Second)
		for rw.Stats().Dropped+rw.Stats().Failed != 5 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if st := rw.Stats(); st.Failed != 1 || st.Dropped != 4 {
			t.Fatalf("after giving up: %+v, want 1 cancelled call and 4 dropped", st)
		}
	})
}

func TestComposesWithCombiningHandler(t *testing.T) {
	sink := &recorder{}
	rw := newRewarder(t, sink)
	var logged []string
	h := lcb.CombiningHandler{Callbacks: []lcb.Handler{rw, textLogger{lines: &logged}}}
	tl := callbacks.WrapTool(toolFunc{"calc", func(in string) (string, error) { return "4", nil }}, h)
	if _, err := tl.Call(context.Background(), "2+2"); err != nil {
		t.Fatal(err)
	}
	flush(t, rw)
	if got := sink.Calls(); len(got) != 1 || got[0].Text != "calc(2+2) → 4" {
		t.Fatalf("sink got %v", got)
	}
	if !slices.Equal(logged, []string{"start 2+2", "end 4"}) {
		t.Fatalf("other handler saw %q", logged)
	}
}

func TestNewRefusesBadOptions(t *testing.T) {
	for name, opts := range map[string][]callbacks.Option{
		"queue":           {callbacks.WithQueueSize(0)},
		"queue too large": {callbacks.WithQueueSize(callbacks.MaxQueueSize + 1)},
		"timeout":         {callbacks.WithTimeout(0)},
		"text":            {callbacks.WithMaxText(-1)},
		"reward":          {callbacks.WithRewardFunc(nil)},
		"nil":             {nil},
		"nil too":         {callbacks.WithQueueSize(8), nil},
	} {
		if _, err := callbacks.New(&recorder{}, opts...); !errors.Is(err, engram.ErrInvalidOption) {
			t.Errorf("%s: err = %v, want ErrInvalidOption", name, err)
		}
	}
	if _, err := callbacks.New(nil); !errors.Is(err, engram.ErrInvalidOption) {
		t.Errorf("nil sink: err = %v", err)
	}
	// A memory whose construction failed, passed on unchecked.
	if _, err := callbacks.New((*recorder)(nil)); !errors.Is(err, engram.ErrInvalidOption) {
		t.Errorf("nil pointer as the sink: err = %v", err)
	}
}

func TestLongTextIsCut(t *testing.T) {
	sink := &recorder{}
	rw := newRewarder(t, sink, callbacks.WithMaxText(20))
	rw.HandleToolEnd(context.Background(), strings.Repeat("é", 100))
	flush(t, rw)
	got := sink.Calls()[0].Text
	if len(got) > 20 || !strings.HasSuffix(got, "…") || !utf8.ValidString(got) {
		t.Fatalf("cut text %q (%d bytes)", got, len(got))
	}
}

// toolFunc is a Tool made of a function.
type toolFunc struct {
	name string
	f    func(string) (string, error)
}

var _ callbacks.Tool = toolFunc{}

func (t toolFunc) Name() string                                      { return t.name }
func (t toolFunc) Description() string                               { return t.name + " things" }
func (t toolFunc) Call(_ context.Context, in string) (string, error) { return t.f(in) }

// textLogger is another handler, to show composition.
type textLogger struct {
	lcb.SimpleHandler
	lines *[]string
}

func (l textLogger) HandleToolStart(_ context.Context, in string) {
	*l.lines = append(*l.lines, "start "+in)
}

func (l textLogger) HandleToolEnd(_ context.Context, out string) {
	*l.lines = append(*l.lines, "end "+out)
}

// A Flush racing Close returns, nil or ErrClosed, even with a context that
// never ends: Close may stop the delivery goroutine just after the Flush
// got its mark into the queue.
func TestFlushRacingClose(t *testing.T) {
	for range 200 {
		rw := newRewarder(t, &recorder{})
		var wg sync.WaitGroup
		errs := make(chan error, 64)
		for range 64 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- rw.Flush(context.Background())
			}()
		}
		if err := rw.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		finished := make(chan struct{})
		go func() { wg.Wait(); close(finished) }()
		select {
		case <-finished:
		case <-time.After(10 * time.Second):
			t.Fatal("a Flush racing Close never returned")
		}
		close(errs)
		for err := range errs {
			if err != nil && !errors.Is(err, engram.ErrClosed) {
				t.Fatalf("Flush = %v, want nil or ErrClosed", err)
			}
		}
	}
}

// TestFeedbackWithNoteIsOneReward: a rating with a note is one reward, on
// the answer it rates; the note is stored without counting it again
// (dmem.Stats once showed two rewards for one :bad with a note).
func TestFeedbackWithNoteIsOneReward(t *testing.T) {
	ctx := context.Background()
	mem := must[*dmem.Memory](t)(dmem.New(ctx))
	rw := newRewarder(t, mem)
	if err := mem.SaveContext(ctx, map[string]any{"input": "What is the wifi password?"}, map[string]any{"output": "kiwi-7731"}); err != nil {
		t.Fatal(err)
	}
	rw.Feedback(ctx, callbacks.ThumbsUp, "")
	flush(t, rw)
	if got := mem.Stats().Rewards; got != 1 {
		t.Fatalf("after one rating: %d rewards, want 1", got)
	}
	rw.Feedback(ctx, callbacks.ThumbsDown, "thanks, but it changed")
	flush(t, rw)
	if got := mem.Stats().Rewards; got != 2 {
		t.Fatalf("after a second rating, with a note: %d rewards, want 2", got)
	}
	if st := rw.Stats(); st.Delivered != 2 || st.Failed != 0 {
		t.Fatalf("rewarder stats %+v, want 2 delivered", st)
	}
}
