package callbacks_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/callbacks"
	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/schema"
)

// printer is a RewardSink that prints what it is given, then passes it on.
type printer struct{ next engram.RewardSink }

func (p printer) Reward(ctx context.Context, r float64) error {
	fmt.Printf("reward %+.1f\n", r)
	return p.next.Reward(ctx, r)
}

func (p printer) Observe(ctx context.Context, s engram.Step) error {
	fmt.Printf("observe %s %+.1f: %s\n", s.Kind, s.Reward, s.Text)
	return p.next.Observe(ctx, s)
}

// An agent loop feeds its memory through one handler. langchaingo's
// executor calls it when given agents.WithCallbacksHandler(rw) and
// agents.WithMemory(rw.Memory(mem)), as the package documentation shows;
// a loop of one's own calls it the same way, here for one turn.
func ExampleRewarder() {
	ctx := context.Background()
	mem, _ := ratedistortion.New()
	rw, _ := callbacks.New(printer{mem})
	defer rw.Close(ctx)
	turns := rw.Memory(mem) // stores a turn's tool steps with it, before the answer
	calc := callbacks.WrapTool(toolFunc{"calculator", func(string) (string, error) { return "42", nil }}, rw)

	in := map[string]any{"input": "What is six times seven?"}
	_, _ = turns.LoadMemoryVariables(ctx, in) // the turn starts
	out, _ := calc.Call(ctx, "6*7")           // the wrapped tool reports its result
	rw.HandleAgentFinish(ctx, schema.AgentFinish{ReturnValues: map[string]any{"output": out}})
	_ = turns.SaveContext(ctx, in, map[string]any{"output": out})
	_ = rw.Flush(ctx) // the finish's reward is delivered after the answer is saved

	vars, _ := mem.LoadMemoryVariables(ctx, map[string]any{"input": "six times seven"})
	fmt.Println(vars["history"])
	// Output:
	// observe tool_result +0.1: calculator(6*7) → 42
	// reward +1.0
	// Human: What is six times seven?
	// tool: calculator(6*7) → 42
	// AI: 42
}

// A chat UI reports a thumbs-up or -down, or any rating with a note.
func ExampleRewarder_Feedback() {
	ctx := context.Background()
	mem, _ := ratedistortion.New()
	rw, _ := callbacks.New(printer{mem})
	defer rw.Close(ctx)

	rw.Feedback(ctx, callbacks.ThumbsDown, "")
	rw.Feedback(ctx, 0.5, "right city, wrong date")
	_ = rw.Flush(ctx)
	// Output:
	// reward -1.0
	// reward +0.5
	// observe feedback +0.0: right city, wrong date
}

// Stats shows what was dropped, failed or panicked instead of being delivered.
func ExampleRewarder_Stats() {
	ctx := context.Background()
	mem, _ := ratedistortion.New()
	rw, _ := callbacks.New(mem)
	rw.HandleToolError(ctx, errors.New("timeout"))
	rw.HandleToolEnd(ctx, "ok")
	_ = rw.Close(ctx)
	rw.HandleToolEnd(ctx, "too late")
	fmt.Printf("%+v\n", rw.Stats())
	// Output:
	// {Queued:2 Delivered:2 Dropped:1 Failed:0 Panicked:0}
}

// A reward function can weigh steps differently: here tool results count
// for nothing and failures for less.
func ExampleRewardFunc() {
	ctx := context.Background()
	mem, _ := ratedistortion.New()
	gentle := func(s engram.Step) float64 {
		switch s.Kind {
		case engram.StepToolResult:
			return 0
		case engram.StepToolError, engram.StepChainError:
			return -0.3
		}
		return callbacks.DefaultReward(s)
	}
	rw, _ := callbacks.New(printer{mem}, callbacks.WithRewardFunc(gentle))
	defer rw.Close(ctx)
	rw.HandleToolError(ctx, errors.New("timeout"))
	rw.HandleToolEnd(ctx, "ok")
	_ = rw.Flush(ctx)
	// Output:
	// observe tool_error -0.3: tool failed: timeout
	// observe tool_result +0.0: tool → ok
}

// With ErrorsAsObservations the agent sees a failure and may try again; the
// memory still gets it as a negative step.
func ExampleWrapTool() {
	ctx := context.Background()
	mem, _ := ratedistortion.New()
	rw, _ := callbacks.New(printer{mem})
	defer rw.Close(ctx)

	flaky := callbacks.WrapTool(toolFunc{"search", func(q string) (string, error) {
		return "", errors.New("rate limited")
	}}, rw, callbacks.ErrorsAsObservations())
	obs, err := flaky.Call(ctx, "weather in Paris")
	_ = rw.Flush(ctx) // delivery is asynchronous: wait for it before printing
	fmt.Printf("agent sees %q, %v\n", obs, err)
	// Output:
	// observe tool_error -1.0: search(weather in Paris) failed: rate limited
	// agent sees "error: rate limited", <nil>
}
