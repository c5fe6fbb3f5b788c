package dmem

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/memvars"
)

var _ engram.LongTerm = (*Memory)(nil)

// Demote stores units a working context let go (see
// ratedistortion.WithLongTerm), oldest first, as steps with their own role,
// text, time and facts (the extractor of [option.WithFacts] reads those that come
// without). A unit the working context retrieved or was rewarded for
// goes to core memory, as an explicit add does: that decision was made
// above; the others are routed by the gate like any step. Units with empty
// text, or longer than [option.WithMaxMessageBytes] allows (logged), are
// skipped; on error nothing is stored.
func (m *Memory) Demote(ctx context.Context, units []engram.Demoted) error {
	if err := memvars.Context(ctx); err != nil {
		return fmt.Errorf("dmem: demote: %w", err)
	}
	ds := make([]draft, 0, len(units))
	for _, u := range units {
		if strings.TrimSpace(u.Text) == "" {
			continue
		}
		if err := m.fits(memvars.Clean(u.Text)); err != nil {
			m.opts.Logger.Warn("dmem: demote: unit skipped", "id", u.ID, "error", err)
			continue
		}
		if !finite(u.Reward) {
			return fmt.Errorf("dmem: demote %s: reward %v: %w", u.ID, u.Reward, engram.ErrInvalidInput)
		}
		fs := facts.Clean(u.Facts)
		if fs == nil && u.FactsRead {
			fs = []engram.Fact{} // read, and none found: not read again
		}
		ds = append(ds, draft{handed: true, role: u.Role, kind: engram.StepMessage, text: u.Text, at: u.Time, fs: fs,
			force: u.Retrieved > 0 && u.Reward >= 0 || u.Reward > 0})
	}
	if len(ds) == 0 {
		return nil
	}
	if _, err := m.record(ctx, ds); err != nil {
		return fmt.Errorf("dmem: demote: %w", err)
	}
	return nil
}

// Recall returns the units a load for query would show within budget
// tokens, and the turns next to each, oldest first, without rendering
// them (see [engram.LongTerm]): in conversation the turn that holds a fact
// is often the one after the turn that matches the question, and the
// working tier scores each unit by its neighbours too. (On the development
// set's long replay the neighbours raised two tiers' recall by 0.024.)
// The units a load would show count as retrieved, so that a
// [Memory.Reward] after them consolidates them, but they are not
// [Memory.LastLoad]'s.
func (m *Memory) Recall(ctx context.Context, query string, budget int) ([]engram.Unit, error) {
	if err := memvars.Context(ctx); err != nil {
		return nil, fmt.Errorf("dmem: recall: %w", err)
	}
	if budget < 1 {
		return nil, fmt.Errorf("dmem: recall: budget %d: %w", budget, engram.ErrInvalidInput)
	}
	cs, qkey, epoch, err := m.search(ctx, query)
	if err != nil {
		return nil, err
	}
	kept, err := m.pack(cs, budget)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(kept))
	out := make([]engram.Unit, 0, 3*len(kept))
	seen := make(map[string]bool, 3*len(kept))
	add := func(u *unit) {
		if u != nil && !seen[u.ID] {
			seen[u.ID] = true
			v := u.Unit
			v.Embedding = nil
			out = append(out, v)
		}
	}
	m.mu.RLock()
	for i, c := range kept {
		ids[i] = c.id
		u, ok := m.byID[c.id]
		if !ok {
			// Another writer's unit, not resident here.
			if !seen[c.id] {
				seen[c.id] = true
				out = append(out, engram.Unit{ID: c.id, Seq: c.seq, Group: c.group, Role: c.role, Text: c.text, Tokens: c.tokens, Facts: c.fs})
			}
			continue
		}
		add(u)
		if u.slot >= 0 {
			for _, k := range []int{-1, 1} {
				if j := m.words.Near(u.slot, k); j >= 0 {
					add(m.words.unit(j))
				}
			}
		}
	}
	m.mu.RUnlock()
	slices.SortFunc(out, func(a, b engram.Unit) int { return cmp.Compare(a.Seq, b.Seq) })
	// A rating the working context passes down is about what it showed.
	m.mu.Lock()
	if m.retrievedLocked(ids, false, epoch) {
		m.rated = kept
		m.ratings.Loaded(qkey, query, ids)
	}
	m.mu.Unlock()
	return out, nil
}
