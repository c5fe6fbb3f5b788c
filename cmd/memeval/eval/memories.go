package eval

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/engram-go/engram/cmd/memeval/dataset"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/gate"
	"github.com/engram-go/engram/option"
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
		{Name: "bm25glove", New: func(_ context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			return newBM25GloVe(budget), nil
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
		{Name: "rd", Engram: true, New: func(ctx context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			return ratedistortion.New(option.WithTokenBudget(budget), option.WithClock(ReplayClock(ctx)))
		}},
		{Name: "dmem", Engram: true, New: func(ctx context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			return dmem.New(ctx, option.WithTokenBudget(budget), option.WithClock(ReplayClock(ctx)))
		}, Close: func(m schema.Memory) error { return m.(*dmem.Memory).Close() }},
	}
}

// Recent returns engram's backends keeping the newest pair whatever its
// score (option.WithRecentMessages(2)), for the measure of what keeping
// it does: rd-recent and dmem-recent.
func Recent() []Memory {
	pair := option.WithRecentMessages(2)
	return []Memory{
		{Name: "rd-recent", Engram: true, New: func(ctx context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			return ratedistortion.New(option.WithTokenBudget(budget), option.WithClock(ReplayClock(ctx)), pair)
		}},
		{Name: "dmem-recent", Engram: true, New: func(ctx context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			return dmem.New(ctx, option.WithTokenBudget(budget), option.WithClock(ReplayClock(ctx)), pair)
		}, Close: func(m schema.Memory) error { return m.(*dmem.Memory).Close() }},
	}
}

// All returns engram's backends, the learned-gate variants, then the
// baselines.
func All() []Memory { return append(append(Engram(), Gates()...), Baselines()...) }

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

// Gates returns ratedistortion with a learned gate (package gate) as its
// scorer in place of the hand-set weights:
//
//	rd-gate      label-free: option.WithGate with a fresh gate per
//	             conversation, replayed as an agent loop (load, then save), so
//	             that the buffer learns whether turns come back to what it kept
//	rd-gate-sup  supervised, for comparison only: one gate fit to the
//	             evidence labels of two conversations of seed 2 (so a run
//	             with -seed 2 tests it partly on what it was fit on)
func Gates() []Memory {
	return []Memory{
		{Name: "rd-gate", Engram: true, New: func(_ context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			return newAgentLoop(budget)
		}},
		{Name: "dmem-gate", Engram: true, New: func(ctx context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			g, err := gate.New()
			if err != nil {
				return nil, err
			}
			m, err := dmem.New(ctx, option.WithTokenBudget(budget), option.WithGate(g))
			if err != nil {
				return nil, err
			}
			return &dmemLoop{m}, nil
		}, Close: func(m schema.Memory) error { return m.(*dmemLoop).Close() }},
		{Name: "rd-gate-sup", Engram: true, New: func(ctx context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			g, err := supervisedGate(ctx)
			if err != nil {
				return nil, err
			}
			return ratedistortion.New(option.WithTokenBudget(budget),
				ratedistortion.WithScorer(gate.Prior{Base: ratedistortion.DefaultWeights, Gate: g}))
		}},
	}
}

// agentLoop is a ratedistortion buffer with a learned gate (WithGate), used
// the way an agent loop uses memory: before each turn is saved, the memory
// is loaded with it, so the buffer's own hindsight — did the conversation
// come back to what the load kept? — trains the gate.
type agentLoop struct {
	*ratedistortion.Buffer
}

func newAgentLoop(budget int) (*agentLoop, error) {
	g, err := gate.New()
	if err != nil {
		return nil, err
	}
	b, err := ratedistortion.New(option.WithTokenBudget(budget), option.WithGate(g))
	if err != nil {
		return nil, err
	}
	return &agentLoop{b}, nil
}

func (a *agentLoop) SaveContext(ctx context.Context, in, out map[string]any) error {
	if q, _ := in["input"].(string); q != "" && a.Buffer.Len() > 0 {
		if _, err := a.Buffer.LoadMemoryVariables(ctx, map[string]any{"input": q}); err != nil {
			return err
		}
	}
	return a.Buffer.SaveContext(ctx, in, out)
}

// dmemLoop is dmem with a learned gate (WithGate), loaded before each turn
// is saved as an agent loop does, so that what it returned can consolidate
// and the gate learn from it.
type dmemLoop struct {
	*dmem.Memory
}

func (d *dmemLoop) SaveContext(ctx context.Context, in, out map[string]any) error {
	if q, _ := in["input"].(string); q != "" {
		if _, err := d.Memory.LoadMemoryVariables(ctx, map[string]any{"input": q}); err != nil {
			return err
		}
	}
	return d.Memory.SaveContext(ctx, in, out)
}

func distinct(ts []string) []string {
	slices.Sort(ts)
	return slices.Compact(ts)
}

var supervised struct {
	once sync.Once
	gate *gate.Gate
	err  error
}

// supervisedGate fits, once, a gate to evidence labels: two conversations
// generated with seed 2 are replayed into the hand-set buffer, each
// question is loaded, and every unit is an example, labelled by whether it
// holds one of the question's evidence turns.
func supervisedGate(ctx context.Context) (*gate.Gate, error) {
	supervised.once.Do(func() {
		supervised.gate, supervised.err = fitSupervised(ctx)
	})
	return supervised.gate, supervised.err
}

func fitSupervised(ctx context.Context) (*gate.Gate, error) {
	cfg := dataset.DefaultGenConfig()
	cfg.Seed, cfg.Samples = 2, 2
	ss, err := dataset.Generate(cfg)
	if err != nil {
		return nil, err
	}
	var ex []gate.Example
	for i := range ss {
		s := &ss[i]
		b, err := ratedistortion.New(option.WithTokenBudget(1024))
		if err != nil {
			return nil, err
		}
		for _, p := range Pairs(s) {
			if err := b.SaveContext(ctx, map[string]any{"input": p[0]}, map[string]any{"output": p[1]}); err != nil {
				return nil, err
			}
		}
		for _, qa := range s.QA {
			if qa.Category == dataset.Adversarial || len(qa.Evidence) == 0 {
				continue
			}
			if _, err := b.LoadMemoryVariables(ctx, map[string]any{"input": qa.Question}); err != nil {
				return nil, err
			}
			x, _ := b.Explain()
			ev := s.Evidence(qa)
			for _, u := range x.Units {
				label := 0.0
				for _, t := range ev {
					if strings.Contains(u.Text, t.Text) {
						label = 1
					}
				}
				ex = append(ex, gate.Example{Features: u.Features, Label: label})
			}
		}
	}
	g, err := gate.New(gate.WithSeed(2))
	if err != nil {
		return nil, err
	}
	g.Fit(ex, 3)
	return g, nil
}
