package callbacks_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

// memory is what an engram backend offers an agent loop.
type memory interface {
	schema.Memory
	engram.RewardSink
}

// memories are the backends every test runs against; add one per line.
var memories = []struct {
	name string
	new  func(t testing.TB) memory
}{
	{"ratedistortion", func(t testing.TB) memory { return must[*ratedistortion.Buffer](t)(ratedistortion.New()) }},
	{"dmem", func(t testing.TB) memory { return must[*dmem.Memory](t)(dmem.New(context.Background())) }},
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

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

// recorder is a RewardSink that records its calls and forwards them to next,
// if any. It can be told to fail, panic or block.
type recorder struct {
	next engram.RewardSink

	mu    sync.Mutex
	calls []sinkCall
	err   error
	panic bool
	block chan struct{} // calls wait on it when non-nil
}

func (r *recorder) Reward(ctx context.Context, x float64) error {
	return r.record(ctx, sinkCall{Op: "reward", Reward: x}, func(s engram.RewardSink) error { return s.Reward(ctx, x) })
}

func (r *recorder) Observe(ctx context.Context, s engram.Step) error {
	return r.record(ctx, sinkCall{Op: "observe", Kind: s.Kind, Text: s.Text, Reward: s.Reward}, func(n engram.RewardSink) error { return n.Observe(ctx, s) })
}

func (r *recorder) record(ctx context.Context, c sinkCall, forward func(engram.RewardSink) error) error {
	r.mu.Lock()
	block, fail, panics := r.block, r.err, r.panic
	r.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if panics {
		panic("sink exploded")
	}
	r.mu.Lock()
	r.calls = append(r.calls, c)
	r.mu.Unlock()
	if fail != nil {
		return fail
	}
	if r.next != nil {
		return forward(r.next)
	}
	return nil
}

func (r *recorder) Calls() []sinkCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]sinkCall(nil), r.calls...)
}

// promptRecorder wraps a model and keeps every prompt it was sent.
type promptRecorder struct {
	llms.Model
	mu      sync.Mutex
	prompts []string
}

func (p *promptRecorder) GenerateContent(ctx context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	var text string
	for _, m := range msgs {
		for _, part := range m.Parts {
			if t, ok := part.(llms.TextContent); ok {
				text += t.Text
			}
		}
	}
	p.mu.Lock()
	p.prompts = append(p.prompts, text)
	p.mu.Unlock()
	return p.Model.GenerateContent(ctx, msgs, opts...)
}

func (p *promptRecorder) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, p, prompt, opts...)
}

func (p *promptRecorder) Last() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.prompts) == 0 {
		return ""
	}
	return p.prompts[len(p.prompts)-1]
}
