package ratedistortion_test

import (
	"testing"

	"github.com/engram-go/engram/adapters/langchaingo/memorytest"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
)

// TestEngram runs the checks every engram memory passes: the common
// options and Explain.
func TestEngram(t *testing.T) {
	memorytest.Engram(t, func(t *testing.T, opts ...option.Option) (memorytest.Explainer, error) {
		return ratedistortion.New(opts...)
	})
}
