package dmem_test

import (
	"context"
	"testing"

	"github.com/engram-go/engram/adapters/langchaingo/memorytest"
	"github.com/engram-go/engram/dmem"
)

// TestEngram runs the checks every engram memory passes: the common
// options and Explain.
func TestEngram(t *testing.T) {
	memorytest.Engram(t, func(t *testing.T, o memorytest.Options) (memorytest.Explainer, error) {
		var opts []dmem.Option
		if o.TokenBudget != 0 {
			opts = append(opts, dmem.WithTokenBudget(o.TokenBudget))
		}
		if o.MemoryKey != "" {
			opts = append(opts, dmem.WithMemoryKey(o.MemoryKey))
		}
		if o.InputKey != "" {
			opts = append(opts, dmem.WithInputKey(o.InputKey))
		}
		if o.OutputKey != "" {
			opts = append(opts, dmem.WithOutputKey(o.OutputKey))
		}
		if o.HumanPrefix != "" {
			opts = append(opts, dmem.WithHumanPrefix(o.HumanPrefix))
		}
		if o.AIPrefix != "" {
			opts = append(opts, dmem.WithAIPrefix(o.AIPrefix))
		}
		if o.ReturnMessages {
			opts = append(opts, dmem.WithReturnMessages(true))
		}
		if o.HalfLife != 0 {
			opts = append(opts, dmem.WithHalfLife(o.HalfLife))
		}
		if o.MaxUnits != 0 {
			opts = append(opts, dmem.WithMaxUnits(o.MaxUnits))
		}
		if o.Clock != nil {
			opts = append(opts, dmem.WithClock(o.Clock))
		}
		if o.RedundancyThreshold != 0 {
			opts = append(opts, dmem.WithRedundancyThreshold(o.RedundancyThreshold))
		}
		if o.MaxMessageBytes != 0 {
			opts = append(opts, dmem.WithMaxMessageBytes(o.MaxMessageBytes))
		}
		m, err := dmem.New(context.Background(), opts...)
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { m.Close() })
		return m, nil
	})
}
