package dmem_test

import (
	"context"
	"testing"

	"github.com/engram-go/engram/adapters/langchaingo/memorytest"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/option"
)

// TestEngram runs the checks every engram memory passes: the common
// options and Explain.
func TestEngram(t *testing.T) {
	memorytest.Engram(t, func(t *testing.T, opts ...option.Option) (memorytest.Explainer, error) {
		m, err := dmem.New(context.Background(), opts...)
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { m.Close() })
		return m, nil
	})
}
