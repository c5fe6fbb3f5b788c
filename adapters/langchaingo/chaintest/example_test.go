package chaintest_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/callbacks"
	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/tools"
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

// An agent executor feeds its memory through one handler; the tool is
// wrapped so that the executor's tool calls are reported.
func Example_rewarder() {
	ctx := context.Background()
	mem, _ := ratedistortion.New()
	rw, _ := callbacks.New(printer{mem})
	defer rw.Close(ctx)

	llm := fake.NewFakeLLM([]string{
		"Thought: Do I need to use a tool? Yes\nAction: calculator\nAction Input: 6*7",
		"Thought: Do I need to use a tool? No\nAI: 42",
	})
	calc := callbacks.WrapTool(tools.Calculator{}, rw)
	agent := agents.NewConversationalAgent(llm, []tools.Tool{calc})
	// rw.Memory stores the tool's result in its turn, before the answer.
	exec := agents.NewExecutor(agent, agents.WithMemory(rw.Memory(mem)), agents.WithCallbacksHandler(rw))

	out, _ := chains.Run(ctx, exec, "What is six times seven?")
	_ = rw.Flush(ctx) // the finish's reward is delivered after the answer is saved
	fmt.Println("answer:", strings.TrimSpace(out))
	vars, _ := mem.LoadMemoryVariables(ctx, map[string]any{"input": "six times seven"})
	fmt.Println(vars["history"])
	// Output:
	// observe tool_result +0.1: calculator(6*7) → 42
	// reward +1.0
	// answer: 42
	// Human: What is six times seven?
	// tool: calculator(6*7) → 42
	// AI:  42
}
