// Package callbacks turns a langchaingo agent's steps into rewards for an
// engram memory, with one handler in the agent loop:
//
//	rw, err := callbacks.New(mem) // mem: any engram.RewardSink, such as both backends
//	if err != nil { … }
//	defer rw.Close(ctx)
//	agents.NewExecutor(agent, agents.WithCallbacksHandler(rw), agents.WithMemory(rw.Memory(mem)))
//
// A [Rewarder] is a langchaingo callbacks.Handler. Each event it cares about
// becomes an [engram.Step]; a [RewardFunc] ([DefaultReward] unless
// [WithRewardFunc]) scores it; the step then reaches the sink:
//
//	event                 Step.Kind       default reward  delivered as
//	HandleToolEnd         StepToolResult  +0.1            Observe
//	HandleToolError       StepToolError   −1              Observe
//	HandleChainError      StepChainError  −1              Observe
//	HandleAgentFinish     StepFinish      +1              Reward
//	Rewarder.Feedback     StepFeedback    as given        Reward, then Observe of a note (reward 0)
//
// Steps that never pass through SaveContext (tool results and errors, and a
// failed chain, for which langchaingo skips SaveContext) are Observed, so the
// failure reaches memory as a negative experience; the outcome of a whole run
// (finish, a user's rating) is a Reward on the memory's latest step. A chain
// error that repeats a tool error already reported in the same run is not
// reported twice; nor is the executor's "not finished" AgentFinish, which is
// always followed by the chain error that reports it. LLM errors are not
// reported on their own either: the chain error that follows carries them.
//
// langchaingo's executor emits no tool events unless the tool calls the
// handler itself: [WrapTool] makes any tool do so.
//
// Handler methods never block or panic the agent: they only queue the event
// in a bounded buffer ([WithQueueSize]); when it is full the event is
// dropped and counted ([Rewarder.Stats]). One goroutine, started by the first
// event and stopped by [Rewarder.Close], calls the sink, so steps reach the
// sink in the order the handler received them (FIFO per Rewarder; the events
// of one agent keep their order, those of concurrent agents interleave).
// Panics and errors in the sink or the reward function are recovered and
// counted.
//
// The executor's SaveContext, which stores the question and the answer,
// comes after the run's tool steps. Given [Rewarder.Memory] as its memory,
// the run holds its tool steps and finish until then, and SaveContext stores
// them in order — question, tool steps, answer, then the finish's reward —
// waiting for their delivery at most [WithTimeout]. With the sink itself as
// the memory, nothing orders delivery against SaveContext, and the tool
// steps land after the answer; call [Rewarder.Flush] before reading the
// memory when that matters. A Rewarder is safe for concurrent use and may
// sit in a callbacks.CombiningHandler.
package callbacks
