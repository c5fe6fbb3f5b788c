package eval

import (
	"context"
	"fmt"
	"strings"

	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/internal/dataset"
	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/memory"
	"github.com/tmc/langchaingo/schema"
)

// Memory is a memory under test, built fresh for each conversation and budget.
type Memory struct {
	// Name identifies the memory in tables and charts.
	Name string
	// Engram marks engram's own backends, for the ordering checks.
	Engram bool
	// New returns an empty memory bounded by budget tokens. The sample is
	// given so that the oracle can read its evidence; others ignore it.
	New func(ctx context.Context, budget int, s *dataset.Sample) (schema.Memory, error)
	// Close releases a memory New returned, if it needs that.
	Close func(schema.Memory) error
}

// Baselines returns the memories every run compares against: langchaingo's
// window and token buffers, a BM25 retriever and the evidence oracle.
func Baselines() []Memory {
	return []Memory{
		{Name: "oracle", New: func(_ context.Context, budget int, s *dataset.Sample) (schema.Memory, error) {
			return newOracle(budget, s), nil
		}},
		{Name: "bm25", New: func(_ context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			return newBM25(budget), nil
		}},
		{Name: "window", New: func(_ context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			// langchaingo's window buffer counts pairs, not tokens: give it
			// as many pairs as the budget holds at a typical 60 tokens a pair.
			return memory.NewConversationWindowBuffer(max(1, budget/60)), nil
		}},
		{Name: "token", New: func(_ context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			return memory.NewConversationTokenBuffer(nil, budget), nil
		}},
	}
}

// Engram returns engram's backends with their default settings.
func Engram() []Memory {
	return []Memory{
		{Name: "rd", Engram: true, New: func(_ context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			return ratedistortion.New(ratedistortion.WithTokenBudget(budget))
		}},
		{Name: "dmem", Engram: true, New: func(ctx context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			return dmem.New(ctx, dmem.WithTokenBudget(budget))
		}, Close: func(m schema.Memory) error { return m.(*dmem.Memory).Close() }},
	}
}

// All returns engram's backends followed by the baselines.
func All() []Memory { return append(Engram(), Baselines()...) }

// Select returns the memories of all whose names are listed, in list order.
func Select(all []Memory, names string) ([]Memory, error) {
	if names == "" || names == "all" {
		return all, nil
	}
	var out []Memory
	for _, n := range strings.Split(names, ",") {
		n = strings.TrimSpace(n)
		found := false
		for _, m := range all {
			if m.Name == n {
				out = append(out, m)
				found = true
			}
		}
		if !found {
			var have []string
			for _, m := range all {
				have = append(have, m.Name)
			}
			return nil, fmt.Errorf("eval: unknown memory %q (have %s)", n, strings.Join(have, ", "))
		}
	}
	return out, nil
}
