package option

import (
	"log/slog"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/gate"
	"github.com/engram-go/engram/internal/memopts"
	"github.com/engram-go/engram/tokens"
	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/schema"
)

// Option configures an engram memory: one of this package's, which every
// memory takes, or one of a memory's own (dmem.WithPath). A memory's New
// applies its options in order, a later one overriding an earlier, and
// refuses, with an error wrapping [engram.ErrInvalidOption] that names
// it, an option of another memory or the zero Option.
type Option = memopts.Option

// set returns the option name that sets a shared field with set.
func set(name string, f func(*memopts.Shared)) Option { return memopts.Common("option."+name, f) }

// WithTokenBudget sets the most tokens LoadMemoryVariables returns, counted
// exactly on the rendered history. Default 2000; must be positive.
func WithTokenBudget(n int) Option {
	return set("WithTokenBudget", func(s *memopts.Shared) { s.Budget = n })
}

// WithMemoryKey sets the key the history is returned under. Default
// "history"; must not be empty.
func WithMemoryKey(k string) Option {
	return set("WithMemoryKey", func(s *memopts.Shared) { s.MemoryKey = k })
}

// WithInputKey sets the key of the human message in SaveContext's inputs and
// of the query in LoadMemoryVariables' inputs. Default "": the only key
// other than the memory key, on save and on load alike, as langchaingo's
// buffers resolve it; with several keys, save and load return an error
// wrapping [engram.ErrInvalidInput] ("multiple keys and no input key set").
func WithInputKey(k string) Option {
	return set("WithInputKey", func(s *memopts.Shared) { s.InputKey = k })
}

// WithOutputKey sets the key of the AI message in SaveContext's outputs.
// Default "": the only key; with several, "output" (where langchaingo's
// agent executor answers beside its intermediate steps), else an error
// wrapping [engram.ErrInvalidInput].
func WithOutputKey(k string) Option {
	return set("WithOutputKey", func(s *memopts.Shared) { s.OutputKey = k })
}

// WithHumanPrefix sets the label of human lines. Default "Human"; must be
// non-empty and start with a visible character.
func WithHumanPrefix(p string) Option {
	return set("WithHumanPrefix", func(s *memopts.Shared) { s.HumanPrefix = p })
}

// WithAIPrefix sets the label of AI lines. Default "AI"; must be non-empty
// and start with a visible character.
func WithAIPrefix(p string) Option {
	return set("WithAIPrefix", func(s *memopts.Shared) { s.AIPrefix = p })
}

// WithReturnMessages makes LoadMemoryVariables return []llms.ChatMessage,
// for prompts that take the history as messages (a MessagesPlaceholder),
// instead of one string. The roles are the messages' types and the texts
// are as saved, line breaks included, without the rendering's prefixes or
// indentation; a date header ("[4 January 2025]", which either memory
// writes when the history spans several days) is a system message. The
// budget bounds the string the load would return without this option:
// what a model or a prompt adds to each message (a role label, such as
// the "System: " of langchaingo's llms.GetBufferString) is its own.
// Default false, a string.
func WithReturnMessages(b bool) Option {
	return set("WithReturnMessages", func(s *memopts.Shared) { s.ReturnMessages = b })
}

// WithEncoding selects the tiktoken encoding used to count tokens. Default
// [tokens.CL100kBase]; [tokens.O200kBase] is the other embedded one. A
// memory reopened or restored with another encoding recounts its units.
func WithEncoding(e tokens.Encoding) Option {
	return set("WithEncoding", func(s *memopts.Shared) { s.Encoding = e })
}

// WithTokenCounter replaces the exact tiktoken counter. For the budget to
// hold exactly, c must be additive over lines: count(a+b) ≤
// count(a)+count(b) for lines ending in "\n". A count below zero is taken
// as 0, and one above 2³¹−1 (what a saved unit holds) as 2³¹−1. c may
// run under the memory's lock, and concurrently; it must not panic: a
// panic of c is not recovered, as a plug-in's is.
// Default: the exact counter of [WithEncoding]'s encoding.
func WithTokenCounter(c engram.TokenCounter) Option {
	return set("WithTokenCounter", func(s *memopts.Shared) { s.Counter = c })
}

// WithEmbedder sets the embedder, which relevance, redundancy and (in
// dmem) admission and merging compare. Any langchaingo embedder works;
// every vector it returns must have the length of the first. Default:
// engram's offline embed.Embedder. ratedistortion's is GloVe alone: on
// real dialogue hashed dimensions added nothing to relevance. dmem's has a
// GloVe share of 0.5 beside 128 hashed dimensions, so that admission and
// merging still see numbers and rare names that word vectors do not (GloVe
// alone admits "locker 5 opens with 4005" as a repeat of "locker 6 opens
// with 4006").
func WithEmbedder(e embeddings.Embedder) Option {
	return set("WithEmbedder", func(s *memopts.Shared) { s.Embedder = e })
}

// WithGate lets a learned gate (package gate) correct the memory's
// judgement of what to keep, and trains it online. g may be shared with
// other memories only if they are to learn one gate together. Default
// nil: the hand-set policy alone.
//
// In ratedistortion the gate corrects the scorer's utilities (see
// [gate.Prior]) and learns label-free: after each load, the next save
// labels every unit the load kept by whether the conversation came back to
// it (a rarer word of it said again), and Reward passes rewards on to the
// units the last load kept. The caller owns the gate and may save it with
// its MarshalBinary.
//
// In dmem each priority the memory sets on deciding about a unit, and each
// consolidation boost, is multiplied by 2·g.Score(f), f the unit's
// features at admission; what follows a load teaches g about the units it
// returned (Hindsight when a positive δ consolidates them, Observe(f, 0)
// when a negative reward follows). The gate's state is saved with the
// memory's and restored into g when a durable memory opens.
func WithGate(g *gate.Gate) Option {
	return set("WithGate", func(s *memopts.Shared) { s.Gate = g })
}

// WithHalfLife sets, in steps (units saved since), how fast time wears a
// unit down; must be positive. In ratedistortion a unit's recency halves
// over it (default 8; +Inf, recency never fades). In dmem its priority
// does (default 4096, at most 1e12 steps, as good as never; infinity is
// refused).
func WithHalfLife(steps float64) Option {
	return set("WithHalfLife", func(s *memopts.Shared) { s.HalfLife = steps })
}

// WithRedundancyThreshold sets the cosine similarity from which two units
// count as repeats, in (0, 1].
//
// In ratedistortion (default 0.9) a load values a unit less for each kept
// unit this similar.
//
// In dmem (default 0.93) a new step this similar to a stored unit may be
// a near-duplicate of it. It merges into the unit only if their words also
// say the same thing: nearly the same stemmed content words, the same
// numbers, ids and names, the same negations. The cosine alone would merge
// "account 4821" into "account 7730": an embedding of common words hardly
// tells them apart.
func WithRedundancyThreshold(t float64) Option {
	return set("WithRedundancyThreshold", func(s *memopts.Shared) { s.Redundancy = t })
}

// WithMaxUnits caps the units a memory holds; 0 means no cap; must not be
// negative.
//
// In ratedistortion it caps the pool: past it, the units with the lowest
// query-free utility are dropped for good (and logged), or handed down to
// the long-term tier (ratedistortion.WithLongTerm), until the pool is at
// 90 % of the cap. Default: no cap without a tier, so that nothing is ever
// dropped unless asked for (a pool costs about 1.6 KB a unit of real
// dialogue; 100,000 units about 150 MB); ratedistortion.DefaultTierMaxUnits
// with a tier, where what leaves the pool is handed down, not lost, and
// the pool stays small enough that every load scores every unit.
//
// In dmem it caps core memory (default 10000): past it the unit of lowest
// priority is evicted, and kept in the history Memory.ExplainUnit reads.
// The short-term buffer (dmem.WithShortTerm) is apart.
func WithMaxUnits(n int) Option {
	return set("WithMaxUnits", func(s *memopts.Shared) { s.MaxUnits, s.MaxUnitsSet = n, true })
}

// WithRecentMessages has every load keep the newest n messages the
// memory holds (a SaveContext pair is two, an observed step one), whatever
// the question, as long as each (with the tool results or the turn it is
// kept with) costs at most a quarter of the budget and what must be kept
// (pinned units first) fits it; the rest of the budget goes by relevance
// as before. A question is often about what was just said, in words it
// does not share ("What do you make of that?"), which relevance misses.
// In dmem a message that merged into an older unit, or that the memory did
// not keep, is not among them.
//
// Measured on real dialogue (docs/measurements.md, "The newest
// messages"), keeping the newest pair is a trade. With each question asked
// right after the turn that answers it, recall at 512 tokens rose from
// 0.79 to 0.94, above langchaingo's token buffer (0.88), and ratings then
// add nothing in-stream (they still do to what is recalled later). With
// every question asked after the whole conversation, where the newest
// pair is seldom the answer, it cost 0.010 (ratedistortion) and 0.016
// (dmem) at 512 tokens, and 0.005 or less from 1,024. Default 0: none
// kept but by relevance; must not be negative.
func WithRecentMessages(n int) Option {
	return set("WithRecentMessages", func(s *memopts.Shared) { s.Recent = n })
}

// WithMaxMessageBytes refuses a message longer than n bytes (as stored:
// valid UTF-8, trailing white space dropped): the call that carries it
// (SaveContext, Observe, AddMessages, AddDocuments) returns an error
// wrapping [engram.ErrTooLarge] and stores nothing; dmem's Memory.Demote
// skips such a unit, logged, so that one unit never holds back a working
// tier's queue. Without a limit a message of any size is stored, at a
// cost linear in its size: only its first 64 KiB are analysed (its words,
// flags, facts and vector come from them), its tokens are counted whole,
// about 0.1 s a MiB. Default 0: no limit; must not be negative.
func WithMaxMessageBytes(n int) Option {
	return set("WithMaxMessageBytes", func(s *memopts.Shared) { s.MaxBytes = n })
}

// WithLogger sets where the memory logs. What it skips rather than fails
// on logs at Warn, one record each: a fact extractor's error; in
// ratedistortion a long-term tier that could not take or give units; in
// dmem units of another embedding dimension found on open and, in the
// store dmem.WithPath opens, damaged records (a store given with
// dmem.WithStore logs on its own). Routine events log at Debug, such as
// each batch of units ratedistortion's pool cap lets go. Nothing logs at
// Info. Default slog.Default().
func WithLogger(l *slog.Logger) Option {
	return set("WithLogger", func(s *memopts.Shared) { s.Logger = l })
}

// WithClock sets the clock that stamps units. Default time.Now.
func WithClock(now func() time.Time) Option {
	return set("WithClock", func(s *memopts.Shared) { s.Now = now })
}

// WithChatHistory mirrors the whole transcript to h, as langchaingo's
// memory.WithChatHistory keeps one: every message the memory stores
// (SaveContext's pair, AddMessages' messages as given, Observe's steps,
// with their kind: "tool_error: …") is added to h in order, as a message
// of its role, while the memory decides what a load shows. Documents
// added to dmem as a vector store, and units a working tier demotes, are
// not part of the transcript; nor does a restore write to h, which already
// holds it. The history is written first: if a write fails, the call
// returns an error wrapping it and the memory stores nothing (the messages
// before the failed one stay in h); if dmem's store then fails, h holds
// the turn and the error says the memory failed. Clear clears h too.
// Default nil: no history.
func WithChatHistory(h schema.ChatMessageHistory) Option {
	return set("WithChatHistory", func(s *memopts.Shared) { s.Chat = h })
}

// WithFacts has ex read the facts each unit states as it is stored
// ([engram.Fact]; adapters/langchaingo.FactExtractor asks a model), so that
// facts that change are answered with their newest value. ex must not be
// nil. Default: none, and units carry no facts.
//
// ex runs outside the memory's lock and is given the current value of the
// slots the memory knows; a unit that arrives with facts (one a working
// context demotes) keeps them and is not read again. The units of one save
// are read a turn at a time, the turns at once (at most four calls). The
// facts are stored with the unit. When a later unit gives a slot (subject
// and relation) another value, the older unit is superseded: at each load
// the newer unit joins the candidates with at least the old one's score,
// which the question may share no word with, and the old one keeps a
// share of it (half, in dmem) and may still be shown, under its date when
// the history spans several days. Explain names each unit's facts and what
// superseded it. In dmem a step that gives a known slot another value is
// news however familiar its words: it never merges into a stored unit, and
// it is kept at least where, and with at least the priority, the statement
// it supersedes is.
//
// An error or a panic of ex is logged ([WithLogger]), counted (Stats) and
// passed to [WithErrorHandler]'s handler, and the unit is stored without
// facts: the save goes on. A save whose context is done before ex returns
// (ex ran past the deadline, say) returns within moments with the
// context's error, the call counted and passed on too, and stores
// nothing: what the caller gave up on is not stored. Given no deadline, a
// stuck ex holds the save.
func WithFacts(ex engram.FactExtractor) Option {
	return set("WithFacts", func(s *memopts.Shared) { s.Facts, s.FactsSet = ex, true })
}

// WithErrorHandler has h told of every failure of what was plugged into
// the memory: the fact extractor ([WithFacts]), an embedder and a chat
// history given as options, and ratedistortion's long-term tier and
// summariser. Each call into them returned an error, panicked (the error
// wraps [engram.ErrPanicked]) or was still running at the caller's
// deadline (it wraps the context's error). The memory survives the
// failure of an extractor, a tier or a summariser: the save or load goes
// on without it (with the extractive summary for the summariser's), so h
// and Stats are how a caller sees them; the others fail the call, which
// returns the error too. h runs on the caller's goroutine, outside the
// memory's lock, and must not block for long. Default nil: failures are
// logged and counted only.
func WithErrorHandler(h func(error)) Option {
	return set("WithErrorHandler", func(s *memopts.Shared) { s.OnError = h })
}
