package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/engram-go/engram"
	engramlc "github.com/engram-go/engram/adapters/langchaingo"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/memory"
	"github.com/tmc/langchaingo/schema"
)

// windowTurns is how many exchanges -memory window keeps: langchaingo's default.
const windowTurns = 5

// backend is a chat memory with what the chatbot's commands need from it.
type backend struct {
	// rec is the memory the chain uses; it records what each load returned.
	rec *recorder
	// sink takes feedback; nil for memories that do not learn from it.
	sink engram.RewardSink
	// explain reports the last load, for the engram memories; nil for
	// langchaingo's, which cannot explain themselves.
	explain func() (engram.LoadReport, bool)
	// why explains the last load; stats counts what the memory holds.
	why   func() string
	stats func() string
	// close releases the memory.
	close func() error
}

// newBackend builds the memory -memory names.
func newBackend(ctx context.Context, c config, llm llms.Model) (*backend, error) {
	if c.path != "" && c.memory != "dmem" && c.memory != "rd" {
		return nil, fmt.Errorf("-path keeps memory across runs with -memory dmem or rd, not %s", c.memory)
	}
	none := func() error { return nil }
	var extract engram.FactExtractor
	if c.facts {
		var err error
		if extract, err = engramlc.FactExtractor(llm); err != nil {
			return nil, err
		}
	}
	// Both engram memories take the same options.
	opts := []option.Option{option.WithTokenBudget(c.budget)}
	if extract != nil {
		opts = append(opts, option.WithFacts(extract))
	}
	switch c.memory {
	case "dmem":
		if c.path != "" {
			opts = append(opts, dmem.WithPath(c.path))
		}
		m, err := dmem.New(ctx, opts...)
		if err != nil {
			return nil, err
		}
		b := &backend{rec: &recorder{Memory: m}, sink: m, close: m.Close, explain: m.Explain}
		b.why = func() string { return whyDMem(m) }
		b.stats = func() string { return statsDMem(m) }
		return b, nil
	case "rd":
		m, err := newRD(ctx, c.path, append(opts, option.WithHalfLife(rdHalfLife(c.budget))))
		if err != nil {
			return nil, err
		}
		closeRD := none
		rec := &recorder{Memory: m}
		if c.path != "" {
			// The buffer lives in memory: it is saved to the file after
			// every exchange (a file replaced whole, never half written),
			// so that a chat cut short by Ctrl-C loses nothing it was
			// told, again when the chat ends, and restored from it when
			// the next one starts.
			closeRD = func() error { return m.SaveFile(c.path) }
			rec.saved = closeRD
		}
		b := &backend{rec: rec, sink: m, close: closeRD, explain: m.Explain}
		b.why = func() string { return whyRD(m) }
		b.stats = func() string {
			s := fmt.Sprintf("rd: %d units in the pool (nothing is deleted; each load chooses within %d tokens)", m.Len(), c.budget)
			if x, ok := m.Explain(); ok {
				kept := 0
				for _, u := range x.Units {
					if u.Kept {
						kept++
					}
				}
				s += fmt.Sprintf("\nlast load: kept %d of %d units, %d of %d tokens", kept, len(x.Units), x.Tokens, x.Budget)
			}
			return s
		}
		return b, nil
	case "window", "token":
		var m schema.Memory
		rule := fmt.Sprintf("the window keeps the last %d exchanges and forgets older ones", windowTurns)
		if c.memory == "window" {
			m = memory.NewConversationWindowBuffer(windowTurns)
		} else {
			m = memory.NewConversationTokenBuffer(llm, c.budget)
			// The token buffer counts with model "", which tiktoken does not
			// know: langchaingo then logs a warning on every count and
			// falls back to len/4. The count is langchaingo's; the noise goes.
			log.SetOutput(io.Discard)
			rule = fmt.Sprintf("the token buffer keeps the newest messages that fit %d tokens and forgets older ones", c.budget)
		}
		b := &backend{rec: &recorder{Memory: m}, close: none}
		b.why = func() string { return whyRecent(rule, b.rec) }
		b.stats = func() string {
			return fmt.Sprintf("%s: the last load returned %d of the %d messages saved (%s)", c.memory, len(historyLines(b.rec.history())), 2*b.rec.turns(), rule)
		}
		return b, nil
	}
	return nil, fmt.Errorf("-memory %q: want dmem, rd, window or token", c.memory)
}

// rdHalfLife is the half-life of rd's recency, in units, for a budget of
// budget tokens: the buffer's default, 8 units at its default budget of
// 2000 tokens, scaled to the budget. The default lets recency keep the
// last few exchanges out of about a hundred that fit; at the chatbot's 120
// tokens, where about eight fit, a half-life of 8 gave recency most of the
// budget, and an old fact was kept only if it outranked the recent small
// talk. Scaled, recency keeps about as large a share as at the default.
func rdHalfLife(budget int) float64 {
	const rdDefaultHalfLife, rdDefaultBudget = 8, 2000
	return rdDefaultHalfLife * float64(budget) / rdDefaultBudget
}

// newRD returns the rate-distortion buffer: restored from the file at path
// if it exists, else new (path "" for none) and saved there at once, its
// directory created if missing, so that a path the buffer cannot be saved
// to is refused before the chat starts, not when it ends.
func newRD(ctx context.Context, path string, opts []ratedistortion.Option) (*ratedistortion.Buffer, error) {
	if path != "" {
		if _, err := os.Stat(path); err == nil {
			return ratedistortion.RestoreFile(ctx, path, opts...)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	b, err := ratedistortion.New(opts...)
	if err != nil || path == "" {
		return b, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("-path: %w", err)
	}
	if err := b.SaveFile(path); err != nil {
		return nil, fmt.Errorf("-path: %w", err)
	}
	return b, nil
}

// recorder is a schema.Memory that passes everything through and remembers
// what the last load returned and every line saved, so that :why can say
// what was left out of memories that cannot explain themselves.
type recorder struct {
	schema.Memory

	// saved, if not nil, runs after each exchange the memory took: it
	// keeps a memory that lives in the process on disk.
	saved func() error

	mu    sync.Mutex
	last  string   // the history the last load returned
	lines []string // every line saved, as "Human: …" and "AI: …"
	seen  int      // how many of lines the last load could have returned
	nload int      // loads so far
}

// LoadMemoryVariables loads from the memory and records the history.
func (r *recorder) LoadMemoryVariables(ctx context.Context, inputs map[string]any) (map[string]any, error) {
	vs, err := r.Memory.LoadMemoryVariables(ctx, inputs)
	if err == nil {
		h, _ := vs[r.Memory.GetMemoryKey(ctx)].(string)
		r.mu.Lock()
		r.last, r.seen = h, len(r.lines)
		r.nload++
		r.mu.Unlock()
	}
	return vs, err
}

// SaveContext saves to the memory and records the exchange.
func (r *recorder) SaveContext(ctx context.Context, inputs, outputs map[string]any) error {
	if err := r.Memory.SaveContext(ctx, inputs, outputs); err != nil {
		return err
	}
	in, _ := inputs["input"].(string)
	out, _ := outputs["text"].(string)
	r.mu.Lock()
	r.lines = append(r.lines, "Human: "+in, "AI: "+out)
	r.mu.Unlock()
	if r.saved != nil {
		if err := r.saved(); err != nil {
			return fmt.Errorf("keeping the memory on disk: %w", err)
		}
	}
	return nil
}

func (r *recorder) history() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

func (r *recorder) loads() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.nload
}

func (r *recorder) turns() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.lines) / 2
}

// historyLines splits a rendered history into its lines.
func historyLines(h string) []string {
	if strings.TrimSpace(h) == "" {
		return nil
	}
	return strings.Split(h, "\n")
}

// whyRecent explains a recency memory's last load: what it returned, what of
// the conversation it no longer had, and the rule that decided.
func whyRecent(rule string, r *recorder) string {
	r.mu.Lock()
	kept := historyLines(r.last)
	saved := slices.Clone(r.lines[:r.seen])
	r.mu.Unlock()
	var sb strings.Builder
	fmt.Fprintf(&sb, "Why: %s.\n", rule)
	fmt.Fprintf(&sb, "kept (%d lines):\n", len(kept))
	for _, l := range kept {
		fmt.Fprintf(&sb, "  + %s\n", l)
	}
	// Match kept lines newest first, so that of repeated lines ("Noted.")
	// the old copies count as dropped.
	left := map[string]int{}
	for _, l := range kept {
		left[l]++
	}
	var dropped []string
	for i := len(saved) - 1; i >= 0; i-- {
		if left[saved[i]] > 0 {
			left[saved[i]]--
		} else {
			dropped = append(dropped, saved[i])
		}
	}
	slices.Reverse(dropped)
	fmt.Fprintf(&sb, "dropped (%d lines):\n", len(dropped))
	for _, l := range dropped {
		fmt.Fprintf(&sb, "  - %s\n", l)
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// whyEngram is :why for both engram memories: the report of the last
// load, the same for each (engram.LoadReport), which lists every unit the
// load kept and the maxDropped most useful of those it dropped, and after
// it what only that memory can say.
func whyEngram(m interface {
	Explain() (engram.LoadReport, bool)
}, intro string, more func(engram.LoadReport) string) string {
	x, ok := m.Explain()
	if !ok {
		return nothingAsked
	}
	return strings.TrimSuffix(intro+x.String()+more(x), "\n")
}

// whyRD adds to the report how good the selection is: its utility
// against the knapsack's upper bound.
func whyRD(m *ratedistortion.Buffer) string {
	return whyEngram(m, "rd keeps the messages whose loss would cost most for your question, within the budget.\n",
		func(engram.LoadReport) string {
			s, ok := m.ExplainSelection()
			if !ok {
				return ""
			}
			if s.Exact {
				return fmt.Sprintf("utility %.3f, proven optimal\n", s.Value)
			}
			return fmt.Sprintf("utility %.3f, within %.1f%% of the bound %.3f\n", s.Value, 100*s.Gap, s.Bound)
		})
}

// whyDMem adds to the report why each kept unit is in memory at all: its
// route, surprise and priority, and the start of its history.
func whyDMem(m *dmem.Memory) string {
	return whyEngram(m, "D-MEM stores what surprised it (core) and a window of recent steps (short); a load packs the candidates\n"+
		"that best fuse similarity to your question with salience into the budget.\n",
		func(x engram.LoadReport) string {
			var sb strings.Builder
			sb.WriteString("how the kept units came to be in memory:\n")
			for _, u := range x.Units {
				if !u.Kept {
					continue
				}
				if e, err := m.ExplainUnit(u.ID); err == nil {
					sb.WriteString(indent(brief(e.String(), 3)))
				}
			}
			st := m.Stats()
			if gone := st.Steps - int64(st.Core+st.Short); gone > 0 {
				steps := "steps"
				if gone == 1 {
					steps = "step"
				}
				fmt.Fprintf(&sb, "not stored (%d %s): routed nowhere, merged into a near-duplicate, overwritten or evicted\n", gone, steps)
			}
			return sb.String()
		})
}

// maxDropped is how many dropped units :why lists, as
// engram.LoadReport.String does.
const maxDropped = 5

func statsDMem(m *dmem.Memory) string {
	st := m.Stats()
	gone := st.Steps - int64(st.Core+st.Short)
	return fmt.Sprintf("dmem: %d steps seen; stored: %d in core, %d in the short-term buffer; "+
		"%d not held (routed nowhere, merged, overwritten or evicted); λ=%.2f",
		st.Steps, st.Core, st.Short, gone, st.Lambda)
}

// brief keeps the first n+1 lines of an explanation: the unit and the start
// of its history.
func brief(s string, n int) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) <= n+2 {
		return s
	}
	return strings.Join(lines[:n+1], "\n") + fmt.Sprintf("\n  … %d more events", len(lines)-n-1)
}

func indent(s string) string {
	var sb strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		sb.WriteString("  " + l + "\n")
	}
	return sb.String()
}

func short(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}
