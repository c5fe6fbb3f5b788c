package ratedistortion_test

import (
	"testing"

	"github.com/engram-go/engram/adapters/langchaingo/memorytest"
	"github.com/engram-go/engram/ratedistortion"
)

// TestEngram runs the checks every engram memory passes: the common
// options and Explain.
func TestEngram(t *testing.T) {
	memorytest.Engram(t, func(t *testing.T, o memorytest.Options) (memorytest.Explainer, error) {
		var opts []ratedistortion.Option
		if o.TokenBudget != 0 {
			opts = append(opts, ratedistortion.WithTokenBudget(o.TokenBudget))
		}
		if o.MemoryKey != "" {
			opts = append(opts, ratedistortion.WithMemoryKey(o.MemoryKey))
		}
		if o.InputKey != "" {
			opts = append(opts, ratedistortion.WithInputKey(o.InputKey))
		}
		if o.OutputKey != "" {
			opts = append(opts, ratedistortion.WithOutputKey(o.OutputKey))
		}
		if o.HumanPrefix != "" {
			opts = append(opts, ratedistortion.WithHumanPrefix(o.HumanPrefix))
		}
		if o.AIPrefix != "" {
			opts = append(opts, ratedistortion.WithAIPrefix(o.AIPrefix))
		}
		if o.ReturnMessages {
			opts = append(opts, ratedistortion.WithReturnMessages(true))
		}
		if o.HalfLife != 0 {
			opts = append(opts, ratedistortion.WithHalfLife(o.HalfLife))
		}
		if o.MaxUnits != 0 {
			opts = append(opts, ratedistortion.WithMaxUnits(o.MaxUnits))
		}
		if o.Clock != nil {
			opts = append(opts, ratedistortion.WithClock(o.Clock))
		}
		if o.RedundancyThreshold != 0 {
			opts = append(opts, ratedistortion.WithRedundancyThreshold(o.RedundancyThreshold))
		}
		if o.MaxMessageBytes != 0 {
			opts = append(opts, ratedistortion.WithMaxMessageBytes(o.MaxMessageBytes))
		}
		b, err := ratedistortion.New(opts...)
		if err != nil {
			return nil, err
		}
		return b, nil
	})
}
