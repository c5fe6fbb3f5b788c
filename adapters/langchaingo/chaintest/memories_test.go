package chaintest_test

import (
	"context"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/adapters/langchaingo/chaintest"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/schema"
)

// memory is what an engram memory offers an agent loop.
type memory interface {
	schema.Memory
	engram.RewardSink
}

// memories are the engram memories, each new with its defaults.
var memories = []struct {
	name string
	new  func(t *testing.T) memory
}{
	{"ratedistortion", func(t *testing.T) memory {
		m, err := ratedistortion.New()
		if err != nil {
			t.Fatal(err)
		}
		return m
	}},
	{"dmem", func(t *testing.T) memory {
		m, err := dmem.New(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Close() })
		return m
	}},
}

// TestMemoriesDropIntoLangchaingo runs the checks on both memories:
// chains.NewConversation, chains.NewLLMChain with memory, and an
// agents.Executor through chains.Run with agents.WithMemory, each recalling
// the first turn's fact in a later prompt.
func TestMemoriesDropIntoLangchaingo(t *testing.T) {
	for _, m := range memories {
		t.Run(m.name, func(t *testing.T) {
			chaintest.Run(t, func(t *testing.T) schema.Memory { return m.new(t) })
		})
	}
}
