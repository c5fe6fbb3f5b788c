package ratedistortion

import (
	"log/slog"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/gate"
	"github.com/engram-go/engram/internal/guard"
	"github.com/engram-go/engram/internal/memopts"
	"github.com/engram-go/engram/tokens"
	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

// Option configures a [Buffer].
type Option func(*options)

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

// WithTokenBudget sets the most tokens LoadMemoryVariables returns, counted
// exactly on the rendered history. Default 2000; must be positive.
func WithTokenBudget(n int) Option { return func(o *options) { o.Budget = n } }

// WithMemoryKey sets the key the history is returned under. Default "history".
func WithMemoryKey(k string) Option { return func(o *options) { o.MemoryKey = k } }

// WithInputKey sets the key of the human message in SaveContext's inputs and
// of the query in LoadMemoryVariables' inputs. Default "": the only key
// other than the memory key, on save and on load alike, as langchaingo's
// buffers resolve it; with several keys, save and load return an error
// wrapping [engram.ErrInvalidInput] ("multiple keys and no input key set").
func WithInputKey(k string) Option { return func(o *options) { o.InputKey = k } }

// WithOutputKey sets the key of the AI message in SaveContext's outputs.
// Default "": the only key; with several, "output" (where langchaingo's
// agent executor answers beside its intermediate steps), else an error
// wrapping [engram.ErrInvalidInput].
func WithOutputKey(k string) Option { return func(o *options) { o.OutputKey = k } }

// WithHumanPrefix sets the label of human lines. Default "Human"; must be
// non-empty and start with a visible character.
func WithHumanPrefix(p string) Option { return func(o *options) { o.HumanPrefix = p } }

// WithAIPrefix sets the label of AI lines. Default "AI"; must be non-empty
// and start with a visible character.
func WithAIPrefix(p string) Option { return func(o *options) { o.AIPrefix = p } }

// WithReturnMessages makes LoadMemoryVariables return []llms.ChatMessage
// instead of a string. The budget still bounds the string the load would
// return without this option. Their texts are as saved, line breaks
// included: the role is the message's type, so nothing needs indenting. A
// date header ("[4 January 2025]", when the history spans several days) is
// a system message; what a model or a prompt adds to each message (a role
// label, such as the "System: " of langchaingo's llms.GetBufferString) is
// its own and not in the budget. Default false.
func WithReturnMessages(b bool) Option { return func(o *options) { o.ReturnMessages = b } }

// WithEncoding selects the tiktoken encoding used to count tokens. Default
// [tokens.CL100kBase]; [tokens.O200kBase] is the other embedded one.
func WithEncoding(e tokens.Encoding) Option { return func(o *options) { o.Encoding = e } }

// WithTokenCounter replaces the tiktoken counter; a count below zero is
// taken as 0. For the budget to hold
// exactly, c must be additive over lines: count(a+b) ≤ count(a)+count(b)
// for lines ending in "\n". Default: the exact tiktoken counter.
func WithTokenCounter(c engram.TokenCounter) Option { return func(o *options) { o.Counter = c } }

// WithEmbedder sets the embedder used for relevance and redundancy. Any
// langchaingo embedder works. Default: engram's offline [embed.Embedder].
func WithEmbedder(e embeddings.Embedder) Option { return func(o *options) { o.Embedder = e } }

// WithScorer replaces the hand-set utility weights, for example with a
// learned gate. A utility that is NaN, infinite or negative counts as 0,
// and one above 1e200 as 1e200. Default: [DefaultWeights].
func WithScorer(s engram.Scorer) Option { return func(o *options) { o.scorer = s } }

// WithGate makes a learned gate correct the scorer's utilities (see
// [gate.Prior]) and trains it online, label-free, from what the buffer sees:
// after each load, the next save labels every unit the load kept by whether
// the conversation came back to it (a rarer word of it said again), and
// [Buffer.Reward] passes rewards on to the units the last load kept. The
// caller owns the gate and may save it with gate's MarshalBinary. Default
// nil: the scorer alone.
func WithGate(g *gate.Gate) Option { return func(o *options) { o.Gate = g } }

// WithSummarizer makes a model summarise what a load leaves out, instead of
// the default extractive summary. Default nil.
func WithSummarizer(m llms.Model) Option { return func(o *options) { o.summarizer = m } }

// WithSummaryShare sets the share of the budget reserved for the summary of
// what was left out, in [0, 0.5]. Tokens the selection leaves unused go to
// the summary too. Default 0, summaries off: on real dialogue a 5 % reserve
// cost 0.01 of evidence recall at every budget (docs/measurements.md, "What relevance
// weighs"); a summariser model may earn it back ([WithSummarizer]).
func WithSummaryShare(f float64) Option { return func(o *options) { o.summaryShare = f } }

// WithMaxUnits caps the units the pool holds. Past it, the units with the
// lowest query-free utility are dropped for good (and logged), or handed
// down to [WithLongTerm]'s tier, until the pool is at 90 % of the cap.
// Must not be negative; 0 is no cap. Default: no cap without a tier, so
// that nothing is ever dropped unless asked for (a pool costs about 1.6 KB
// a unit of real dialogue; 100,000 units about 150 MB); [DefaultTierMaxUnits] with a
// tier, where what leaves the pool is handed down, not lost, and the pool
// stays small enough that every load scores every unit.
// dmem.WithMaxUnits caps its core memory the same way.
func WithMaxUnits(n int) Option {
	return func(o *options) { o.MaxUnits, o.MaxUnitsSet = n, true }
}

// DefaultTierMaxUnits is the pool's cap over a long-term tier
// ([WithLongTerm]) unless [WithMaxUnits] sets another.
const DefaultTierMaxUnits = 4096

// WithRedundancyThreshold sets the cosine similarity from which two units
// count as repeats, in (0, 1]: a load values a unit less for each kept
// unit this similar. Default 0.9. dmem.WithRedundancyThreshold is the same
// idea: from it a new step may merge into a stored unit.
func WithRedundancyThreshold(t float64) Option { return func(o *options) { o.Redundancy = t } }

// WithHalfLife sets, in steps (units saved since), how fast a unit's
// recency halves. Default 8; must be positive. dmem.WithHalfLife is the
// same idea: how fast its priorities halve.
func WithHalfLife(steps float64) Option { return func(o *options) { o.HalfLife = steps } }

// WithRecencyHalfLife is [WithHalfLife].
//
// Deprecated: use [WithHalfLife], the name both engram memories share.
func WithRecencyHalfLife(n float64) Option { return WithHalfLife(n) }

// WithExactLimit sets the largest number of candidate groups solved exactly;
// above it the lazy greedy runs. Default 22; negative disables exact search.
func WithExactLimit(n int) Option { return func(o *options) { o.exactLimit = n } }

// WithLogger sets where the buffer logs. Routine events log at Debug: each
// pool-cap eviction batch (one record, with how many units went, dropped or
// handed down to the long-term tier) and each unit it drops. What it skips
// rather than fails on logs at Warn: a fact extractor's error, a long-term
// tier that could not take or give units. Nothing logs at Info. Default
// slog.Default().
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.Logger = l } }

// WithLongTerm makes the buffer the working tier over lt (a *dmem.Memory,
// say): the units the pool cap lets go (see [WithMaxUnits]) are demoted to
// lt with their statistics instead of lost, and every load with a query
// asks lt for what it would show within the budget; those units compete
// with the pool's on the same relevance and stay cached in the pool until
// the cap lets them go again. Rewards after a load that showed them reach
// lt too. [Selection] gives each unit's [engram.Tier]. The pool's cap is
// [DefaultTierMaxUnits] unless [WithMaxUnits] sets another; with
// WithMaxUnits(0) the pool never demotes, and lt only answers what the
// pool does not hold.
func WithLongTerm(lt engram.LongTerm) Option { return func(o *options) { o.longTerm = lt } }

// WithChatHistory mirrors the whole transcript to h, as langchaingo's
// memory.WithChatHistory keeps one: every message the buffer stores
// (SaveContext's pair, AddMessages' messages as given, Observe's steps) is
// added to h in order, while the buffer decides what a load shows. The
// history is written first: if a write fails, the call returns an error
// wrapping it and the buffer stores nothing (the messages before the
// failed one stay in h). [Buffer.Clear] clears h too. Restore does not
// write to h, which already holds the transcript. Default nil: no history.
func WithChatHistory(h schema.ChatMessageHistory) Option { return func(o *options) { o.Chat = h } }

// WithFacts reads the facts each saved unit states with ex (an
// [engram.FactExtractor]: adapters/langchaingo.FactExtractor asks a model),
// so that facts that change are answered with their newest value: when a
// later unit gives a slot (subject and relation) another value, the older
// unit is superseded, and at each load its relevance goes to the unit that
// states the newest value, which the question may share no word with. The
// old unit keeps a share and may still be shown, under its date when the
// history spans several days. [Selection] names each unit's facts and
// what superseded it; Save keeps them. The units of one save are read a
// turn at a time, the turns at once (at most four calls). An extractor's
// error or panic is logged, counted ([Buffer.Stats]) and passed to
// [WithErrorHandler]'s handler, and the unit is stored without facts: the
// save goes on. A save whose context is done before the extractor
// returns (it ran past the deadline, say) returns within moments with the
// context's error, the call counted and passed on too, and stores
// nothing: what the caller gave up on is not stored. dmem.WithFacts
// answers both the same way. Default none: no unit states a fact, and
// only the text's own cues (corrections kept with what they correct) apply.
func WithFacts(ex engram.FactExtractor) Option {
	return func(o *options) { o.Facts, o.FactsSet = ex, true }
}

// WithErrorHandler has h told of every failure of what was plugged into
// the buffer: the long-term tier ([WithLongTerm]), the fact extractor
// ([WithFacts]), the summariser, an embedder and a chat history given as
// options. Each call into them returned an error, panicked (the error
// wraps [engram.ErrPanicked]) or was still running at the caller's
// deadline (it wraps the context's error). The buffer survives a tier's,
// an extractor's and a summariser's failure: the save or load goes on
// without it (with the extractive summary for the summariser's), so h and
// [Buffer.Stats] are how a caller sees them; the others' fail the call,
// which returns the error too. h runs
// on the caller's goroutine, outside the buffer's lock, and must not block
// for long. Default nil: failures are logged and counted only.
// dmem.WithErrorHandler is the same.
func WithErrorHandler(h func(error)) Option { return func(o *options) { o.OnError = h } }

// WithMaxMessageBytes refuses a message longer than n bytes (as stored:
// valid UTF-8, trailing white space dropped): the call that carries it
// returns an error wrapping [engram.ErrTooLarge] and stores nothing.
// Without a limit a message of any size is stored, at a cost linear in
// its size: only its first 64 KiB are analysed (its words, flags, facts
// and vector come from them), its tokens are counted whole, about 0.1 s a
// MiB. Default 0: no limit; must not be negative.
// dmem.WithMaxMessageBytes is the same.
func WithMaxMessageBytes(n int) Option { return func(o *options) { o.MaxBytes = n } }

// WithClock sets the clock that stamps units. Default time.Now.
func WithClock(now func() time.Time) Option { return func(o *options) { o.Now = now } }

func (o *options) validate() error {
	if err := o.Validate(); err != nil {
		return err
	}
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
