package eval

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/engram-go/engram/cmd/memeval/dataset"
	"github.com/engram-go/engram/cmd/memeval/updates"
	"github.com/engram-go/engram/tokens"
)

// The update evaluation replays conversations in which facts
// change (package updates) and asks for their current values. Besides
// recall of the current value's statement it measures how often a memory
// shows a superseded statement without its date, which leaves an agent no
// way to tell the old value from the new.

// UpdateMemories are the memories the update evaluation compares by
// default: engram's backends reading the text alone, then reading facts
// with the set's answer key (FactMemories), and the baselines. A new
// memory is compared by adding its name here and its entry to Engram.
const UpdateMemories = "rd,dmem,rd-facts,dmem-facts,bm25,bm25glove"

// UpdateResult is one memory's scores on the update set at one budget.
type UpdateResult struct {
	Memory string `json:"memory"`
	Budget int    `json:"budget"`
	// SingleHop and MultiHop are current-value recall: the mean share of
	// a question's evidence (the current value's statement, and a
	// multi-hop question's link) whose text is in the returned history.
	SingleHop float64 `json:"single_hop"`
	MultiHop  float64 `json:"multi_hop"`
	// StaleShown is the share of questions whose returned history holds
	// a superseded statement of the fact asked; StaleUndated the share
	// where one such statement is shown without its date (see Dated).
	StaleShown   float64 `json:"stale_shown"`
	StaleUndated float64 `json:"stale_undated"`
	SingleHopN   int     `json:"single_hop_questions"`
	MultiHopN    int     `json:"multi_hop_questions"`
	// MeanTokens is the mean exact size of what was returned.
	MeanTokens float64 `json:"mean_tokens"`
	// OverBudget is the share of answers larger than the budget.
	OverBudget float64 `json:"over_budget"`
	// Latencies of LoadMemoryVariables, in microseconds.
	LoadP50 float64 `json:"load_p50_us"`
	LoadP99 float64 `json:"load_p99_us"`
}

type updateAcc struct {
	recall         [2]float64 // single-hop, multi-hop
	n              [2]int
	shown, undated int
	tokens         float64
	over           int
	loads          []time.Duration
}

// Updates replays every sample into every memory at every budget, asks
// each question, and scores the answers. Memories see the samples'
// session dates through ReplayClock.
func Updates(ctx context.Context, samples []updates.Sample, cfg Config) ([]UpdateResult, error) {
	for i := range samples {
		if s := &samples[i]; len(s.Stale) != len(s.QA) {
			return nil, fmt.Errorf("eval: updates: %s has %d stale lists for %d questions", s.ID, len(s.Stale), len(s.QA))
		}
	}
	cells, err := sweep(samples, cfg, "eval: updates", func(s *updates.Sample) string { return s.ID },
		func() *updateAcc { return new(updateAcc) },
		func(s *updates.Sample, m Memory, budget int, a *updateAcc) error {
			return updateOne(ctx, s, m, budget, a)
		})
	if err != nil {
		return nil, err
	}
	var out []UpdateResult
	for mi, m := range cfg.Memories {
		for bi, budget := range cfg.Budgets {
			out = append(out, cells[[2]int{mi, bi}].result(m.Name, budget))
		}
	}
	return out, nil
}

func updateOne(ctx context.Context, s *updates.Sample, m Memory, budget int, a *updateAcc) error {
	mem, clk, done, err := open(ctx, m, budget, &s.Sample, true)
	if err != nil {
		return err
	}
	defer done()
	if _, err := replay(ctx, mem, clk, &s.Sample); err != nil {
		return err
	}
	said := make(map[string]time.Time) // dia_id → its session's date
	for _, ss := range s.Sessions {
		t, _ := SessionTime(ss)
		for _, turn := range ss.Turns {
			said[turn.DiaID] = t
		}
	}
	counter := tokens.Default()
	for i, qa := range s.QA {
		hop := 0
		switch qa.Category {
		case dataset.SingleHop:
		case dataset.MultiHop:
			hop = 1
		default:
			continue
		}
		ev := s.Evidence(qa)
		if len(ev) == 0 {
			return fmt.Errorf("%q has no evidence", qa.Question)
		}
		start := time.Now()
		vars, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": qa.Question})
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		a.loads = append(a.loads, time.Since(start))
		got, err := history(vars, mem.GetMemoryKey(ctx))
		if err != nil {
			return err
		}
		flat, found := squash(got), 0
		for _, t := range ev {
			if strings.Contains(flat, squash(t.Text)) {
				found++
			}
		}
		a.recall[hop] += float64(found) / float64(len(ev))
		a.n[hop]++
		shown, undated := false, false
		for _, id := range s.Stale[i] {
			t, ok := s.Turn(id)
			if !ok {
				return fmt.Errorf("%q: stale %s names no turn", qa.Question, id)
			}
			if strings.Contains(flat, squash(t.Text)) {
				shown = true
				undated = undated || !Dated(got, t.Text, said[id])
			}
		}
		if shown {
			a.shown++
		}
		if undated {
			a.undated++
		}
		n := counter.Count(got)
		a.tokens += float64(n)
		if n > budget {
			a.over++
		}
	}
	return nil
}

func (a *updateAcc) result(name string, budget int) UpdateResult {
	r := UpdateResult{Memory: name, Budget: budget, SingleHopN: a.n[0], MultiHopN: a.n[1]}
	if a.n[0] > 0 {
		r.SingleHop = a.recall[0] / float64(a.n[0])
	}
	if a.n[1] > 0 {
		r.MultiHop = a.recall[1] / float64(a.n[1])
	}
	if q := float64(a.n[0] + a.n[1]); q > 0 {
		r.StaleShown, r.StaleUndated = float64(a.shown)/q, float64(a.undated)/q
		r.MeanTokens, r.OverBudget = a.tokens/q, float64(a.over)/q
	}
	r.LoadP50, r.LoadP99 = percentile(a.loads, 0.5), percentile(a.loads, 0.99)
	return r
}

// FindUpdate returns the update result for a memory at a budget.
func FindUpdate(rs []UpdateResult, memory string, budget int) (UpdateResult, bool) {
	for _, r := range rs {
		if r.Memory == memory && r.Budget == budget {
			return r, true
		}
	}
	return UpdateResult{}, false
}

// WriteUpdateTable prints update results as an aligned table, one row per
// memory and budget.
func WriteUpdateTable(w io.Writer, rs []UpdateResult) error {
	_, err := fmt.Fprintf(w, "%-10s %6s %10s %9s %11s %13s %7s %6s %9s %9s\n",
		"memory", "budget", "single-hop", "multi-hop", "stale shown", "stale undated", "tokens", "over", "load p50", "load p99")
	for _, r := range rs {
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%-10s %6d %10.3f %9.3f %11.3f %13.3f %7.0f %5.1f%% %7.0fµs %7.0fµs\n",
			r.Memory, r.Budget, r.SingleHop, r.MultiHop, r.StaleShown, r.StaleUndated, r.MeanTokens, 100*r.OverBudget, r.LoadP50, r.LoadP99)
	}
	return err
}

// UpdateTarget is an acceptance threshold on the update set: current-value
// recall at least SingleHop and MultiHop, stale statements shown undated
// on at most StaleUndated of the questions.
type UpdateTarget struct {
	SingleHop, MultiHop, StaleUndated float64
}

// SupersedingTarget is the target for a memory that supersedes updated
// facts (WithFacts): current-value recall of 0.90 single-hop and 0.60
// multi-hop, a stale statement undated on at most 5 % of the questions.
var SupersedingTarget = UpdateTarget{SingleHop: 0.90, MultiHop: 0.60, StaleUndated: 0.05}

// Check returns one error per way a named memory misses the target at
// budget in rs, and one for each named memory rs has no result for.
func (tg UpdateTarget) Check(rs []UpdateResult, budget int, memories ...string) []error {
	checks := []struct {
		what    string
		got     func(UpdateResult) float64
		want    float64
		atLeast bool
	}{
		{"single-hop recall", func(r UpdateResult) float64 { return r.SingleHop }, tg.SingleHop, true},
		{"multi-hop recall", func(r UpdateResult) float64 { return r.MultiHop }, tg.MultiHop, true},
		{"stale undated", func(r UpdateResult) float64 { return r.StaleUndated }, tg.StaleUndated, false},
	}
	var errs []error
	for _, name := range memories {
		r, ok := FindUpdate(rs, name, budget)
		if !ok {
			errs = append(errs, fmt.Errorf("updates: no result for %s at %d tokens", name, budget))
			continue
		}
		for _, c := range checks {
			got := c.got(r)
			if c.atLeast && got < c.want {
				errs = append(errs, fmt.Errorf("updates: %s at %d tokens: %s %.3f, want ≥ %.2f", name, budget, c.what, got, c.want))
			}
			if !c.atLeast && got > c.want {
				errs = append(errs, fmt.Errorf("updates: %s at %d tokens: %s %.3f, want ≤ %.2f", name, budget, c.what, got, c.want))
			}
		}
	}
	return errs
}

// UpdateSet generates the update set: updates.DefaultConfig with the given
// seed and conversation count, its filler drawn from dialogue if any.
func UpdateSet(seed uint64, conversations int, dialogue []dataset.Sample) ([]updates.Sample, error) {
	cfg := updates.DefaultConfig()
	cfg.Seed, cfg.Conversations, cfg.Dialogue = seed, conversations, dialogue
	return updates.Generate(cfg)
}
