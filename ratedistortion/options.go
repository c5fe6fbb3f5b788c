package ratedistortion

import (
	"github.com/engram-go/engram"
	"github.com/engram-go/engram/gate"
	"github.com/engram-go/engram/internal/guard"
	"github.com/engram-go/engram/internal/memopts"
	"github.com/engram-go/engram/option"
	"github.com/tmc/langchaingo/llms"
)

// Option configures a [Buffer]: one of package option's, which every
// engram memory takes (option.WithTokenBudget, option.WithFacts, …), or
// one of this package's own. dmem's own options are refused.
type Option = option.Option

// own returns this package's option name, which sets the buffer's own
// options with set.
func own(name string, set func(*options)) Option {
	return memopts.Own("ratedistortion", "ratedistortion."+name, set)
}

type options struct {
	memopts.Shared

	scorer       engram.Scorer
	summarizer   llms.Model
	summaryShare float64
	exactLimit   int
	longTerm     engram.LongTerm
}

func defaults() options {
	o := options{Shared: memopts.Defaults("ratedistortion")}
	o.Redundancy, o.HalfLife = 0.9, 8
	return o
}

// WithScorer replaces the hand-set utility weights, for example with a
// learned gate. A utility that is NaN, infinite or negative counts as 0,
// and one above 1e200 as 1e200. Default: [DefaultWeights].
func WithScorer(s engram.Scorer) Option { return own("WithScorer", func(o *options) { o.scorer = s }) }

// WithSummarizer makes a model summarise what a load leaves out, instead of
// the default extractive summary. Default nil.
func WithSummarizer(m llms.Model) Option {
	return own("WithSummarizer", func(o *options) { o.summarizer = m })
}

// WithSummaryShare sets the share of the budget reserved for the summary of
// what was left out, in [0, 0.5]. Tokens the selection leaves unused go to
// the summary too. Default 0, summaries off: on real dialogue a 5 % reserve
// cost 0.01 of evidence recall at every budget (docs/measurements.md, "What relevance
// weighs"); a summariser model may earn it back ([WithSummarizer]).
func WithSummaryShare(f float64) Option {
	return own("WithSummaryShare", func(o *options) { o.summaryShare = f })
}

// DefaultTierMaxUnits is the pool's cap over a long-term tier
// ([WithLongTerm]) unless option.WithMaxUnits sets another.
const DefaultTierMaxUnits = 4096

// WithRecencyHalfLife is option.WithHalfLife, for ratedistortion alone.
//
// Deprecated: use option.WithHalfLife, which every engram memory takes.
func WithRecencyHalfLife(n float64) Option {
	return own("WithRecencyHalfLife", func(o *options) { o.HalfLife = n })
}

// WithExactLimit sets the largest number of candidate groups solved exactly;
// above it the lazy greedy runs. Default 22; negative disables exact search.
func WithExactLimit(n int) Option {
	return own("WithExactLimit", func(o *options) { o.exactLimit = n })
}

// WithLongTerm makes the buffer the working tier over lt (a *dmem.Memory,
// say): the units the pool cap lets go (see option.WithMaxUnits) are demoted to
// lt with their statistics instead of lost, and every load with a query
// asks lt for what it would show within the budget; those units compete
// with the pool's on the same relevance and stay cached in the pool until
// the cap lets them go again. Rewards after a load that showed them reach
// lt too. [Selection] gives each unit's [engram.Tier]. The pool's cap is
// [DefaultTierMaxUnits] unless option.WithMaxUnits sets another; with
// option.WithMaxUnits(0) the pool never demotes, and lt only answers what the
// pool does not hold.
func WithLongTerm(lt engram.LongTerm) Option {
	return own("WithLongTerm", func(o *options) { o.longTerm = lt })
}

// check checks the buffer's own options, after the shared ones, and fills
// in what they leave to the buffer.
func (o *options) check() error {
	bad := o.Invalid
	switch {
	case o.longTerm != nil && memopts.NilPointer(o.longTerm):
		return bad("long-term tier is a nil %T", o.longTerm)
	case !(o.summaryShare >= 0 && o.summaryShare <= 0.5):
		return bad("summary share %v not in [0, 0.5]", o.summaryShare)
	}
	if o.longTerm != nil && !o.MaxUnitsSet {
		o.MaxUnits = DefaultTierMaxUnits
	}
	if o.scorer == nil {
		o.scorer = DefaultWeights
	}
	if o.Gate != nil {
		o.scorer = gate.Prior{Base: o.scorer, Gate: o.Gate}
	}
	// The default embedder is GloVe alone: on real dialogue the hashed
	// part added nothing to relevance (embed.DefaultGloVeShare).
	if err := o.Resolve(); err != nil {
		return err
	}
	// The long-term tier is called through the guards in tier.go.
	if o.summarizer != nil {
		o.summarizer = guard.Model(o.summarizer, o.Guards.Summarizer)
	}
	return nil
}
