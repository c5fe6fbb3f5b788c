package chaintest_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/callbacks"
	"github.com/tmc/langchaingo/tools"
)

// sinkCall is one call a recorder received.
type sinkCall struct {
	Op     string // "reward" or "observe"
	Kind   engram.StepKind
	Text   string
	Reward float64
}

func (c sinkCall) String() string {
	if c.Op == "reward" {
		return fmt.Sprintf("reward(%+.1f)", c.Reward)
	}
	return fmt.Sprintf("observe(%s %q %+.1f)", c.Kind, c.Text, c.Reward)
}

// recorder is a RewardSink that records its calls and forwards them to
// next. Its calls wait on block when it is not nil.
type recorder struct {
	next  engram.RewardSink
	block chan struct{}

	mu    sync.Mutex
	calls []sinkCall
}

func (r *recorder) Reward(ctx context.Context, x float64) error {
	return r.record(ctx, sinkCall{Op: "reward", Reward: x}, func(s engram.RewardSink) error { return s.Reward(ctx, x) })
}

func (r *recorder) Observe(ctx context.Context, s engram.Step) error {
	return r.record(ctx, sinkCall{Op: "observe", Kind: s.Kind, Text: s.Text, Reward: s.Reward}, func(n engram.RewardSink) error { return n.Observe(ctx, s) })
}

func (r *recorder) record(ctx context.Context, c sinkCall, forward func(engram.RewardSink) error) error {
	if r.block != nil {
		select {
		case <-r.block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	r.mu.Lock()
	r.calls = append(r.calls, c)
	r.mu.Unlock()
	return forward(r.next)
}

func (r *recorder) Calls() []sinkCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]sinkCall(nil), r.calls...)
}

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

// toolFunc is a tool made of a function.
type toolFunc struct {
	name string
	f    func(string) (string, error)
}

var _ tools.Tool = toolFunc{}

func (t toolFunc) Name() string                                      { return t.name }
func (t toolFunc) Description() string                               { return t.name + " things" }
func (t toolFunc) Call(_ context.Context, in string) (string, error) { return t.f(in) }
