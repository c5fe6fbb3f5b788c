package engram

import (
	"context"
	"time"
)

// StepKind says what an agent step was.
type StepKind uint8

// Kinds of agent step.
const (
	StepMessage    StepKind = iota // a conversation turn
	StepToolCall                   // the agent called a tool
	StepToolResult                 // a tool answered
	StepToolError                  // a tool failed
	StepChainError                 // a chain or model call failed
	StepFinish                     // the agent finished
	StepFeedback                   // explicit feedback from a user
)

var stepNames = [...]string{"message", "tool_call", "tool_result", "tool_error", "chain_error", "finish", "feedback"}

// String returns the kind's lower-case name.
func (k StepKind) String() string {
	if int(k) < len(stepNames) {
		return stepNames[k]
	}
	return "unknown"
}

// Step is one experience an agent loop reports to memory, with the reward
// that came with it.
type Step struct {
	// Kind says what happened.
	Kind StepKind
	// Text describes the step: a tool's input and output, an error message.
	Text string
	// Reward is the scalar outcome; 0 when none is known.
	Reward float64
	// Time is when the step happened.
	Time time.Time
}

// RewardSink is what a memory implements to learn from an agent's outcomes.
// Both engram backends implement it; the callbacks package feeds it.
type RewardSink interface {
	// Reward reports an outcome. Following a load (directly, or after the
	// save of the rated exchange), it rates what that load showed, read on
	// [−1, 1]; otherwise it is the most recent step's outcome.
	Reward(ctx context.Context, r float64) error
	// Observe records a step that did not pass through SaveContext, such as
	// a tool error or a failed chain.
	Observe(ctx context.Context, s Step) error
}
