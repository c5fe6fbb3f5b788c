package chaintest_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/callbacks"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/tools"
)

const (
	useWeather = "Thought: Do I need to use a tool? Yes\nAction: weather\nAction Input: Paris"
	answer     = "Thought: Do I need to use a tool? No\nAI: It is 18°C and sunny in Paris."
)

// flakyWeather fails its first n calls, then answers.
func flakyWeather(n int) tools.Tool {
	var mu sync.Mutex
	calls := 0
	return toolFunc{"weather", func(city string) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls <= n {
			return "", errors.New("weather service unavailable")
		}
		return "18°C, sunny in " + city, nil
	}}
}

// TestAgentLearnsFromFailureThenSuccess runs a langchaingo agent whose tool
// fails twice and then works, with the Rewarder on the executor, the agent and
// the tool. The memory receives, in order, both failures with a negative
// reward, the success with a positive one, and the run's reward; the next load
// for a similar task shows the failures and the success.
func TestAgentLearnsFromFailureThenSuccess(t *testing.T) {
	for _, m := range memories {
		t.Run(m.name, func(t *testing.T) {
			ctx := context.Background()
			mem := m.new(t)
			sink := &recorder{next: mem}
			rw := newRewarder(t, sink)

			llm := fake.NewFakeLLM([]string{useWeather, useWeather, useWeather, answer})
			weather := callbacks.WrapTool(flakyWeather(2), rw, callbacks.ErrorsAsObservations())
			agent := agents.NewConversationalAgent(llm, []tools.Tool{weather}, agents.WithCallbacksHandler(rw))
			exec := agents.NewExecutor(agent, agents.WithMemory(mem), agents.WithCallbacksHandler(rw))

			out, err := chains.Run(ctx, exec, "What is the weather in Paris today?")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, "18°C") {
				t.Fatalf("agent answered %q", out)
			}
			flush(t, rw)

			var got []string
			for _, c := range sink.Calls() {
				got = append(got, c.String())
			}
			want := []string{
				`observe(tool_error "weather(Paris) failed: weather service unavailable" -1.0)`,
				`observe(tool_error "weather(Paris) failed: weather service unavailable" -1.0)`,
				`observe(tool_result "weather(Paris) → 18°C, sunny in Paris" +0.1)`,
				`reward(+1.0)`,
			}
			if !slices.Equal(got, want) {
				t.Fatalf("memory received\n%q\nwant\n%q", got, want)
			}
			if st := rw.Stats(); st.Delivered != 4 || st.Dropped+st.Failed+st.Panicked != 0 {
				t.Fatalf("stats %+v", st)
			}

			vars, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": "What is the weather in Lyon?"})
			if err != nil {
				t.Fatal(err)
			}
			history := fmt.Sprint(vars[mem.GetMemoryKey(ctx)])
			for _, s := range []string{"weather(Paris) failed: weather service unavailable", "weather(Paris) → 18°C, sunny in Paris"} {
				if !strings.Contains(history, s) {
					t.Errorf("next load lacks %q:\n%s", s, history)
				}
			}
		})
	}
}

// TestFailedRunReachesMemory checks that a run that errors, for which
// langchaingo skips SaveContext, still reaches memory, once, as a negative
// experience, and that the next similar task is shown it.
func TestFailedRunReachesMemory(t *testing.T) {
	for _, m := range memories {
		t.Run(m.name, func(t *testing.T) {
			ctx := context.Background()
			mem := m.new(t)
			sink := &recorder{next: mem}
			rw := newRewarder(t, sink)

			for range 2 { // the tool fails and ends the run, twice
				llm := fake.NewFakeLLM([]string{useWeather})
				weather := callbacks.WrapTool(flakyWeather(1), rw)
				agent := agents.NewConversationalAgent(llm, []tools.Tool{weather}, agents.WithCallbacksHandler(rw))
				exec := agents.NewExecutor(agent, agents.WithMemory(mem), agents.WithCallbacksHandler(rw))
				if _, err := chains.Run(ctx, exec, "What is the weather in Paris today?"); err == nil {
					t.Fatal("run with a failing tool succeeded")
				}
			}
			// The model itself fails: the chain error carries the task.
			agent := agents.NewConversationalAgent(fake.NewFakeLLM(nil), nil, agents.WithCallbacksHandler(rw))
			exec := agents.NewExecutor(agent, agents.WithMemory(mem), agents.WithCallbacksHandler(rw))
			if _, err := chains.Run(ctx, exec, "Book a table in Paris"); err == nil {
				t.Fatal("run with a failing model succeeded")
			}
			flush(t, rw)

			var got []string
			for _, c := range sink.Calls() {
				got = append(got, c.String())
			}
			want := []string{
				`observe(tool_error "weather(Paris) failed: weather service unavailable" -1.0)`,
				`observe(tool_error "weather(Paris) failed: weather service unavailable" -1.0)`,
				`observe(chain_error "task \"Book a table in Paris\" failed: no responses configured" -1.0)`,
			}
			if !slices.Equal(got, want) {
				t.Fatalf("memory received\n%q\nwant\n%q", got, want)
			}
			vars, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": "Book a table in Lyon"})
			if err != nil {
				t.Fatal(err)
			}
			if h := fmt.Sprint(vars[mem.GetMemoryKey(ctx)]); !strings.Contains(h, `task "Book a table in Paris" failed`) {
				t.Fatalf("failed run missing from the next load:\n%s", h)
			}
		})
	}
}

// TestConcurrentAgentsShareOneRewarder runs agents in parallel, each with its
// own fake model (llms/fake is not safe for concurrent use), all reporting to
// one Rewarder and one memory. Run with -race. Each agent's steps reach the
// sink in the agent's order.
func TestConcurrentAgentsShareOneRewarder(t *testing.T) {
	for _, m := range memories {
		t.Run(m.name, func(t *testing.T) {
			const agentsN, runs = 8, 5
			ctx := context.Background()
			mem := m.new(t)
			sink := &recorder{next: mem}
			rw := newRewarder(t, sink, callbacks.WithQueueSize(agentsN*runs*4))

			var wg sync.WaitGroup
			errs := make(chan error, agentsN*runs)
			for a := range agentsN {
				wg.Go(func() {
					for r := range runs {
						city := fmt.Sprintf("city%d-%d", a, r)
						llm := fake.NewFakeLLM([]string{
							"Thought: Do I need to use a tool? Yes\nAction: weather\nAction Input: " + city,
							"Thought: Do I need to use a tool? No\nAI: fine",
						})
						weather := callbacks.WrapTool(flakyWeather(0), rw)
						agent := agents.NewConversationalAgent(llm, []tools.Tool{weather}, agents.WithCallbacksHandler(rw))
						exec := agents.NewExecutor(agent, agents.WithMemory(mem), agents.WithCallbacksHandler(rw))
						runCtx, cancel := context.WithCancel(ctx)
						_, err := chains.Run(runCtx, exec, "weather in "+city)
						cancel()
						errs <- err
						if r == 2 {
							rw.Feedback(ctx, callbacks.ThumbsUp, "")
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			flush(t, rw)
			st := rw.Stats()
			if want := int64(agentsN * (2*runs + 1)); st.Queued != want || st.Delivered != want || st.Dropped != 0 {
				t.Fatalf("stats %+v, want %d delivered", st, want)
			}
			next := make(map[int]int) // agent → next run whose result is due
			for _, c := range sink.Calls() {
				var a, r int
				if c.Kind.String() != "tool_result" {
					continue
				}
				if _, err := fmt.Sscanf(c.Text, "weather(city%d-%d)", &a, &r); err != nil {
					t.Fatalf("unexpected step %q", c.Text)
				}
				if r != next[a] {
					t.Fatalf("agent %d: run %d delivered before run %d", a, r, next[a])
				}
				next[a]++
			}
		})
	}
}

// TestToolStepsStoredInTheirTurn: with the executor's memory given by
// [callbacks.Rewarder.Memory], an agent's tool result is stored between the
// question and the answer, under one label, by the time the run returns
// (it once landed after the answer, as "tool: tool_result: …").
func TestToolStepsStoredInTheirTurn(t *testing.T) {
	for _, m := range memories {
		t.Run(m.name, func(t *testing.T) {
			ctx := context.Background()
			mem := m.new(t)
			rw := newRewarder(t, mem)
			var want []string
			for _, sum := range []string{"2+2", "3*5"} { // the second run must not disturb the first's order
				out, _ := tools.Calculator{}.Call(ctx, sum)
				llm := fake.NewFakeLLM([]string{
					"Thought: Do I need to use a tool? Yes\nAction: calculator\nAction Input: " + sum,
					"Thought: Do I need to use a tool? No\nAI: That makes " + out,
				})
				exec := turnExecutor(rw, mem, llm, tools.Calculator{})
				if _, err := chains.Run(ctx, exec, "What is "+sum+"?"); err != nil {
					t.Fatal(err)
				}
				want = append(want, "Human: What is "+sum+"?", "tool: calculator("+sum+") → "+out, "AI: That makes "+out)
			}
			vars, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": "What is 2+2?"})
			if err != nil {
				t.Fatal(err)
			}
			// langchaingo's agent keeps the space after "AI:" in its answer.
			got := strings.ReplaceAll(fmt.Sprint(vars[mem.GetMemoryKey(ctx)]), "AI:  ", "AI: ")
			if w := strings.Join(want, "\n"); got != w {
				t.Fatalf("history\n%s\nwant\n%s", got, w)
			}
			flush(t, rw)
			if st := rw.Stats(); st.Delivered != 4 || st.Queued != 4 {
				t.Fatalf("stats %+v, want 2 tool results and 2 finishes delivered", st)
			}
		})
	}
}

// TestTurnWaitIsBounded: a sink stuck on a tool step holds the run back no
// longer than the Rewarder's timeout; question and answer are stored.
func TestTurnWaitIsBounded(t *testing.T) {
	ctx := context.Background()
	mem := memories[0].new(t)
	release := make(chan struct{})
	defer close(release)
	rw := newRewarder(t, &recorder{next: mem, block: release}, callbacks.WithTimeout(50*time.Millisecond))
	llm := fake.NewFakeLLM([]string{
		"Thought: Do I need to use a tool? Yes\nAction: calculator\nAction Input: 2+2",
		"Thought: Do I need to use a tool? No\nAI: 4",
	})
	exec := turnExecutor(rw, mem, llm, tools.Calculator{})
	start := time.Now()
	if _, err := chains.Run(ctx, exec, "What is 2+2?"); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("a stuck sink held the run for %v", d)
	}
	vars, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": "What is 2+2?"})
	if err != nil {
		t.Fatal(err)
	}
	if h := fmt.Sprint(vars[mem.GetMemoryKey(ctx)]); !strings.Contains(h, "Human: What is 2+2?") || !strings.Contains(h, "4") {
		t.Fatalf("the turn was not stored:\n%s", h)
	}
}

// TestFailedTurnDeliversHeldSteps: a run of a Rewarder.Memory that fails,
// for which langchaingo skips SaveContext, still delivers the tool steps it
// held; a turn never saved is delivered by Close.
func TestFailedTurnDeliversHeldSteps(t *testing.T) {
	ctx := context.Background()
	mem := memories[1].new(t)
	sink := &recorder{next: mem}
	rw := newRewarder(t, sink)
	exec := turnExecutor(rw, mem, fake.NewFakeLLM([]string{useWeather}), flakyWeather(1))
	if _, err := chains.Run(ctx, exec, "What is the weather in Paris today?"); err == nil {
		t.Fatal("run with a failing tool succeeded")
	}
	flush(t, rw)
	want := `observe(tool_error "weather(Paris) failed: weather service unavailable" -1.0)`
	if got := sink.Calls(); len(got) != 1 || got[0].String() != want {
		t.Fatalf("sink got %v, want %s", got, want)
	}

	// A turn loaded but never saved nor failed.
	turn, cancel := context.WithCancel(ctx)
	defer cancel()
	if _, err := rw.Memory(mem).LoadMemoryVariables(turn, map[string]any{"input": "x"}); err != nil {
		t.Fatal(err)
	}
	rw.HandleToolEnd(turn, "held")
	flush(t, rw)
	if n := len(sink.Calls()); n != 1 {
		t.Fatalf("a held step was delivered before its turn ended: %d calls", n)
	}
	if err := rw.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if got := sink.Calls(); len(got) != 2 || got[1].Text != "tool → held" {
		t.Fatalf("Close did not deliver the held step: %v", got)
	}
}

// TestNotFinishedIsOneFailure: an agent that runs out of iterations ends
// with the executor's "not finished" finish and then its chain error; the
// handler reports the failure once, as the chain error, and never
// rewards the give-up as a finish.
func TestNotFinishedIsOneFailure(t *testing.T) {
	ctx := context.Background()
	mem := memories[0].new(t)
	sink := &recorder{next: mem}
	rw := newRewarder(t, sink)
	llm := fake.NewFakeLLM([]string{"Thought: Do I need to use a tool? Yes\nAction: calculator\nAction Input: 1+1"})
	exec := turnExecutor(rw, mem, llm, tools.Calculator{}, agents.WithMaxIterations(1))
	if _, err := chains.Run(ctx, exec, "Count forever"); !errors.Is(err, agents.ErrNotFinished) {
		t.Fatalf("run ended with %v, want the executor's not finished", err)
	}
	flush(t, rw)
	var failures int
	for _, c := range sink.Calls() {
		switch {
		case c.Op == "reward" && c.Reward > 0:
			t.Errorf("the give-up was rewarded: %v", sink.Calls())
		case c.Kind == engram.StepChainError:
			failures++
		}
	}
	if failures != 1 {
		t.Fatalf("%d chain errors reported, want 1: %v", failures, sink.Calls())
	}
}

// Every langchaingo tool is a callbacks.Tool, and a wrapped one is a
// langchaingo tool again.
var _ tools.Tool = callbacks.WrapTool(tools.Calculator{}, nil)

// turnExecutor is a conversational agent over llm with tool, wrapped to
// report to rw, run with rw as its handler and rw.Memory(mem) as its
// memory, so that each turn's tool steps are stored in it.
func turnExecutor(rw *callbacks.Rewarder, mem schema.Memory, llm llms.Model, tool tools.Tool, opts ...agents.Option) *agents.Executor {
	agent := agents.NewConversationalAgent(llm, []tools.Tool{callbacks.WrapTool(tool, rw)})
	opts = append(opts, agents.WithMemory(rw.Memory(mem)), agents.WithCallbacksHandler(rw))
	return agents.NewExecutor(agent, opts...)
}
