package eval

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/gate"
	"github.com/engram-go/engram/internal/dataset"
	"github.com/engram-go/engram/internal/text"
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
//	rd-gate      label-free: a fresh gate per conversation that learns during
//	             the replay from later turns referring back to earlier units
//	rd-gate-sup  supervised, for comparison only: one gate fit to the
//	             evidence labels of conversations of another seed (2)
func Gates() []Memory {
	return []Memory{
		{Name: "rd-gate", Engram: true, New: func(_ context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			return newReferral(budget)
		}},
		{Name: "rd-gate-sup", Engram: true, New: func(ctx context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			g, err := supervisedGate(ctx)
			if err != nil {
				return nil, err
			}
			return ratedistortion.New(ratedistortion.WithTokenBudget(budget),
				ratedistortion.WithScorer(gate.Prior{Base: ratedistortion.DefaultWeights, Gate: g}))
		}},
	}
}

// Hindsight from reference: before each turn is saved, the buffer is loaded
// with it, as an agent loop does, and each unit at least referralHorizon
// units old is an example for the gate, with the features that load saw:
// positive if the turn refers back to it (shares a rare content word with
// it), negative otherwise. A uniform sample of at most referralSample units
// per turn keeps the work constant and the base rate unbiased.
const (
	referralHorizon = 32 // younger units are the recency window's business
	referralSample  = 256
	referralRare    = 50 // a word is rare if in at most 1/50 of units (or 2)
)

// referral is a ratedistortion buffer whose gate learns from references.
type referral struct {
	*ratedistortion.Buffer
	gate  *gate.Gate
	terms [][]string     // by unit Seq: its distinct content words
	df    map[string]int // units containing each word
	rng   *rand.Rand
}

func newReferral(budget int) (*referral, error) {
	g, err := gate.New()
	if err != nil {
		return nil, err
	}
	b, err := ratedistortion.New(ratedistortion.WithTokenBudget(budget),
		ratedistortion.WithScorer(gate.Prior{Base: ratedistortion.DefaultWeights, Gate: g}))
	if err != nil {
		return nil, err
	}
	return &referral{Buffer: b, gate: g, df: make(map[string]int), rng: rand.New(rand.NewPCG(1, 2))}, nil
}

func (r *referral) SaveContext(ctx context.Context, in, out map[string]any) error {
	q, _ := in["input"].(string)
	a, _ := out["output"].(string)
	if q != "" && r.Buffer.Len() > referralHorizon {
		if _, err := r.Buffer.LoadMemoryVariables(ctx, map[string]any{"input": q}); err != nil {
			return err
		}
		if x, ok := r.Buffer.Explain(); ok {
			r.learn(x, distinct(text.Terms(q+" "+a)))
		}
	}
	if err := r.Buffer.SaveContext(ctx, in, out); err != nil {
		return err
	}
	for _, s := range []string{q, a} {
		if s != "" {
			ts := distinct(text.Terms(s))
			r.terms = append(r.terms, ts)
			for _, t := range ts {
				r.df[t]++
			}
		}
	}
	return nil
}

// learn teaches the gate which of the units x reports the later turn, with
// content words later, refers back to.
func (r *referral) learn(x ratedistortion.Explanation, later []string) {
	rare := max(2, len(r.terms)/referralRare)
	us := slices.Clone(x.Units)
	r.rng.Shuffle(len(us), func(i, j int) { us[i], us[j] = us[j], us[i] })
	n := 0
	for _, u := range us {
		if n == referralSample {
			break
		}
		if u.Features.AgeSteps < referralHorizon || u.Seq >= int64(len(r.terms)) {
			continue
		}
		f := u.Features
		label := 0.0
		if refersTo(later, r.terms[u.Seq], r.df, rare) {
			label = 1
		}
		r.gate.Observe(f, label)
		n++
	}
}

// refersTo reports whether later shares a rare word with earlier.
func refersTo(later, earlier []string, df map[string]int, rare int) bool {
	for _, t := range later {
		if df[t] <= rare && slices.Contains(earlier, t) {
			return true
		}
	}
	return false
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
		b, err := ratedistortion.New(ratedistortion.WithTokenBudget(1024))
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
