package langchaingo_test

import (
	"testing"

	"github.com/engram-go/engram/adapters/langchaingo/memorytest"
	"github.com/tmc/langchaingo/schema"
)

// TestMemoriesDropIntoLangchaingo runs the conformance checks on every backend:
// chains.NewConversation, chains.NewLLMChain with memory, and an agents.Executor
// through chains.Run with agents.WithMemory, each recalling the first turn's
// fact in a later prompt.
func TestMemoriesDropIntoLangchaingo(t *testing.T) {
	for _, m := range memories {
		t.Run(m.name, func(t *testing.T) {
			memorytest.Run(t, func(t *testing.T) schema.Memory { return m.new(t) })
		})
	}
}
