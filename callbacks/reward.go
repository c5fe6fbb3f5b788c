package callbacks

import "github.com/engram-go/engram"

// RewardFunc scores a step. It sees the step's Kind and Text; for feedback,
// Reward holds the rating given, otherwise 0. It runs on the delivery
// goroutine; a panic is recovered and the step dropped.
type RewardFunc func(s engram.Step) float64

// Ratings for [Rewarder.Feedback] from a thumbs-up/down control.
const (
	ThumbsUp   = 1.0
	ThumbsDown = -1.0
)

// DefaultReward scores a failed tool or chain −1, a tool result +0.1 (it
// worked, but whether it helped is known only at the end), a finished run +1,
// feedback as given, and anything else 0.
func DefaultReward(s engram.Step) float64 {
	switch s.Kind {
	case engram.StepToolError, engram.StepChainError:
		return -1
	case engram.StepToolResult:
		return 0.1
	case engram.StepFinish:
		return 1
	case engram.StepFeedback:
		return s.Reward
	}
	return 0
}
