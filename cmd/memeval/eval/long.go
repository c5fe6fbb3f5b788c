package eval

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"time"

	"github.com/engram-go/engram/cmd/memeval/dataset"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/schema"
)

// The long-horizon replay asks whether a memory keeps the early
// part of a conversation far longer than any working buffer should hold:
// a dataset's conversations are joined into one, saved in order, and every
// question of every conversation is asked at the end.

// LongHorizonMemories are the memories the long-horizon replay compares by
// default: ratedistortion uncapped and with its pool capped at 500 units,
// dmem, and the two retrieval anchors. A new memory is compared by adding
// its name here and its entry to Engram.
const LongHorizonMemories = "rd,rd-cap500,rd-tiers,dmem,bm25,bm25glove"

// Capped returns ratedistortion with its working pool capped
// (option.WithMaxUnits) at 500 units: alone ("rd-cap500"), past the
// cap it forgets for good; over dmem ("rd-tiers",
// ratedistortion.WithLongTerm) it hands what leaves down to dmem and
// recalls from it at each load.
func Capped() []Memory {
	return []Memory{
		{Name: "rd-cap500", Engram: true, New: func(_ context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			// The cap drops units on most saves, and logs each time.
			return ratedistortion.New(option.WithTokenBudget(budget), option.WithMaxUnits(500),
				option.WithLogger(slog.New(slog.DiscardHandler)))
		}},
		{Name: "rd-tiers", Engram: true, New: func(ctx context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
			lt, err := dmem.New(ctx, option.WithTokenBudget(budget))
			if err != nil {
				return nil, err
			}
			b, err := ratedistortion.New(option.WithTokenBudget(budget), option.WithMaxUnits(500),
				ratedistortion.WithLongTerm(lt), option.WithLogger(slog.New(slog.DiscardHandler)))
			if err != nil {
				lt.Close()
				return nil, err
			}
			return tiers{b, lt}, nil
		}, Close: func(m schema.Memory) error { return m.(tiers).lt.Close() }},
	}
}

// tiers is a two-tier memory and the long-term tier it closes.
type tiers struct {
	*ratedistortion.Buffer
	lt *dmem.Memory
}

// Known returns every memory a name may select: All, then Capped.
func Known() []Memory { return append(append(All(), Capped()...), Recent()...) }

// LongHorizon joins samples into one conversation (Concat), replays it into
// each memory at each budget and asks all its questions at the end,
// scored as Run scores them.
func LongHorizon(ctx context.Context, samples []dataset.Sample, cfg Config) ([]Result, error) {
	if len(samples) == 0 {
		return nil, errors.New("eval: long horizon: no conversations to join")
	}
	long := Concat(samples)
	return Run(ctx, []dataset.Sample{long}, cfg)
}

// joinGap is the time between one conversation's last session and the
// next one's first, once joined.
const joinGap = 7 * 24 * time.Hour

// Concat joins samples, in order, into one conversation with the id
// "long". Sessions are renumbered in replay order; dia_ids and evidence
// ids are prefixed with the sample's id ("conv-26/D1:3"), so they stay
// unique. A speaker whose name an earlier conversation already used is
// renamed "Name (sample id)", in its turns and as a whole word in its
// conversation's questions. Session dates are shifted, each
// conversation's keeping its spacing, so that time runs forward: each
// conversation starts a week after the previous one ends. A date that
// does not parse is kept as written.
func Concat(samples []dataset.Sample) dataset.Sample {
	out := dataset.Sample{ID: "long"}
	if len(samples) > 0 {
		out.SpeakerA, out.SpeakerB = samples[0].SpeakerA, samples[0].SpeakerB
	}
	used := make(map[string]bool)
	var last time.Time // end of the conversations joined so far
	for _, s := range samples {
		rename := make(map[string]string)
		for _, sp := range speakers(&s) {
			if used[sp] {
				rename[sp] = sp + " (" + s.ID + ")"
			}
		}
		for _, sp := range speakers(&s) {
			used[sp] = true
		}
		var shift time.Duration
		if first, ok := firstTime(&s); ok && !last.IsZero() {
			shift = last.Add(joinGap).Sub(first)
		}
		for _, ss := range s.Sessions {
			ns := dataset.Session{Index: len(out.Sessions) + 1, DateTime: ss.DateTime}
			if t, ok := SessionTime(ss); ok {
				t = t.Add(shift)
				ns.DateTime = t.Format(sessionLayout)
				last = later(last, t)
			}
			for _, t := range ss.Turns {
				if n, ok := rename[t.Speaker]; ok {
					t.Speaker = n
				}
				t.DiaID = s.ID + "/" + t.DiaID
				ns.Turns = append(ns.Turns, t)
			}
			out.Sessions = append(out.Sessions, ns)
		}
		for _, qa := range s.QA {
			ev := make([]string, len(qa.Evidence))
			for i, id := range qa.Evidence {
				ev[i] = s.ID + "/" + id
			}
			qa.Evidence = ev
			for from, to := range rename {
				qa.Question = regexp.MustCompile(`\b`+regexp.QuoteMeta(from)+`\b`).ReplaceAllLiteralString(qa.Question, to)
			}
			out.QA = append(out.QA, qa)
		}
	}
	return out
}

// speakers returns the distinct speakers of s's turns, first seen first.
func speakers(s *dataset.Sample) []string {
	var out []string
	seen := make(map[string]bool)
	for _, t := range s.Turns() {
		if !seen[t.Speaker] {
			seen[t.Speaker] = true
			out = append(out, t.Speaker)
		}
	}
	return out
}

func firstTime(s *dataset.Sample) (time.Time, bool) {
	for _, ss := range s.Sessions {
		if t, ok := SessionTime(ss); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// LongHorizonTarget is what a two-tier memory must reach on the
// long-horizon replay: its recall at least uncapped ratedistortion's
// ("rd"), and at least the capped pool's ("rd-cap500") plus Margin.
type LongHorizonTarget struct {
	Margin float64
	// MaxLoadP50 bounds the median load, in microseconds.
	MaxLoadP50 float64
}

// TwoTierTarget is the target a two-tier memory is held to: 0.10 above
// the capped pool's recall, and a median load under 10 ms.
var TwoTierTarget = LongHorizonTarget{Margin: 0.10, MaxLoadP50: 10_000}

// Check returns one error per way a named memory misses the target at
// budget in rs, and one for each result it needs that rs lacks.
func (tg LongHorizonTarget) Check(rs []Result, budget int, memories ...string) []error {
	rd, okRD := Find(rs, "rd", budget)
	capped, okCap := Find(rs, "rd-cap500", budget)
	if !okRD || !okCap {
		return []error{fmt.Errorf("long horizon at %d tokens: the target needs rd and rd-cap500", budget)}
	}
	var errs []error
	for _, name := range memories {
		r, ok := Find(rs, name, budget)
		if !ok {
			errs = append(errs, fmt.Errorf("long horizon: no result for %s at %d tokens", name, budget))
			continue
		}
		for _, c := range []struct {
			what string
			want float64
		}{
			{"uncapped rd", rd.Recall},
			{fmt.Sprintf("rd-cap500 + %.2f", tg.Margin), capped.Recall + tg.Margin},
		} {
			if r.Recall < c.want {
				errs = append(errs, fmt.Errorf("long horizon: %s at %d tokens: recall %.3f, want ≥ %.3f (%s)", name, budget, r.Recall, c.want, c.what))
			}
		}
		if tg.MaxLoadP50 > 0 && r.LoadP50 > tg.MaxLoadP50 {
			errs = append(errs, fmt.Errorf("long horizon: %s at %d tokens: load p50 %.0f µs, want ≤ %.0f", name, budget, r.LoadP50, tg.MaxLoadP50))
		}
	}
	return errs
}
