package dmem

import (
	"log/slog"
	"math"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/gate"
	"github.com/engram-go/engram/internal/memopts"
	"github.com/engram-go/engram/tokens"
	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/schema"
)

// Option configures a [Memory]. The options both engram memories take
// have the same names in package ratedistortion. Its WithSummarizer and
// WithSummaryShare have no counterpart here: a load leaves units out
// without a summary line standing for them (they stay in memory, and a
// later load may return them).
type Option func(*options)

type options struct {
	memopts.Shared

	path       string
	syncEvery  time.Duration
	store      store.Store
	ns         engram.Namespace
	shortTerm  int
	discount   float64
	candidates int
	departed   int
}

func defaults() options {
	o := options{Shared: memopts.Defaults("dmem"), shortTerm: 32, discount: 0.9, departed: 4096}
	o.MaxUnits, o.HalfLife, o.Redundancy = 10000, 4096, 0.93
	return o
}

// WithTokenBudget sets the most tokens LoadMemoryVariables returns, counted
// exactly on the rendered history. Default 2000; must be positive.
func WithTokenBudget(n int) Option { return func(o *options) { o.Budget = n } }

// defaultHashDimensions is the size of the default embedder's hashed half:
// enough to tell numbers and names apart, small enough that admission's
// nearest-neighbour search stays cheap.
const defaultHashDimensions = 128

// WithReturnMessages makes LoadMemoryVariables return []llms.ChatMessage,
// for prompts that take the history as messages (a MessagesPlaceholder),
// instead of one string. The roles are the messages' types and the texts
// are as saved, without the rendering's prefixes or indentation. The budget
// bounds the string the load would return without this option; what a
// model or a prompt adds to each message (a role label, such as the
// "System: " of langchaingo's llms.GetBufferString before a date header)
// is its own. Default false, a string.
func WithReturnMessages(b bool) Option { return func(o *options) { o.ReturnMessages = b } }

// WithEmbedder sets the embedder. Any langchaingo embedder works; every
// vector it returns must have the length of the first. Default: engram's
// offline [embed.Embedder] with a GloVe share of 0.5 beside 128 hashed
// dimensions, so that admission
// and merging, which compare embeddings, still see numbers and rare names
// that word vectors do not (a share of 1 admits "locker 5 opens with 4005"
// as a repeat of "locker 6 opens with 4006").
func WithEmbedder(e embeddings.Embedder) Option { return func(o *options) { o.Embedder = e } }

// WithPath makes the memory durable: its record is kept in the embedded
// store ([boltstore.Open]) in dir, created if missing, and reopening dir restores
// it. The memory closes the store when it closes. Default "": in memory only.
func WithPath(dir string) Option { return func(o *options) { o.path = dir } }

// WithSyncEvery relaxes the durability of the store [WithPath] opens: a
// commit is written to the file but synced to disk at most once per every,
// at a later commit, and at Close. A process that crashes or is killed
// loses nothing (its writes are the system's); a power loss or a crash of
// the system may lose the saves of the last interval, or damage the file,
// which [Salvage] then copies from. Saves take a fraction of their time
// with an fsync each (see the package's BenchmarkInsert). Default 0: every
// commit is synced before the save that made it returns, one fsync shared
// by the saves that commit together. It applies to WithPath's store only.
func WithSyncEvery(every time.Duration) Option { return func(o *options) { o.syncEvery = every } }

// WithStore keeps the memory's record in s, which the caller opened (with
// [boltstore.Open], dmem/pgstore, or any implementation of [store.Store]) and
// closes after the memory: several memories, of one or several namespaces,
// may share it. Default nil: in
// memory only, unless [WithPath] is given; the two exclude each other.
func WithStore(s store.Store) Option { return func(o *options) { o.store = s } }

// WithNamespace sets the namespace the memory reads and writes in its
// store: user, agent and session, any of them empty, none holding invalid
// UTF-8 or a NUL byte. Memories of different
// namespaces share nothing, whatever store they share; memories of one
// namespace, in one or several processes, share its units. Default: the
// empty namespace.
func WithNamespace(user, agent, session string) Option {
	return func(o *options) { o.ns = engram.Namespace{User: user, Agent: agent, Session: session} }
}

// WithMaxUnits caps the units core memory holds; past it the unit of
// lowest priority is evicted (and kept in the history [Memory.ExplainUnit]
// reads). The short-term buffer ([WithShortTerm]) is apart. Default 10000;
// 0 means no cap; must not be negative. ratedistortion.WithMaxUnits caps
// its pool the same way.
func WithMaxUnits(n int) Option { return func(o *options) { o.MaxUnits = n } }

// WithCapacity is [WithMaxUnits].
//
// Deprecated: use [WithMaxUnits], the name both engram memories share.
func WithCapacity(n int) Option { return WithMaxUnits(n) }

// noCap is the capacity of a memory without a cap: more units than one
// process holds, and small enough for every store's integer columns.
const noCap = math.MaxInt32

// WithShortTerm sets the size of the short-term buffer, the window of recent
// units that did not earn a place in core memory. Default 32; 0 disables it.
func WithShortTerm(n int) Option { return func(o *options) { o.shortTerm = n } }

// WithHalfLife sets, in steps, how fast priorities halve. Default 4096;
// must be positive and at most 1e12 steps, as good as never (infinity is
// refused). ratedistortion.WithHalfLife is the same
// idea: how fast its recency halves.
func WithHalfLife(steps float64) Option { return func(o *options) { o.HalfLife = steps } }

// WithRedundancyThreshold sets the cosine similarity from which two units
// count as repeats, in (0, 1]: from it a new step may be a near-duplicate
// of a stored unit. Default 0.93. It merges into
// the unit only if their words also say the same thing: nearly the same
// stemmed content words, the same numbers, ids and names, the same
// negations. The cosine alone would merge "account 4821" into "account
// 7730": an embedding of common words hardly tells them apart.
// ratedistortion.WithRedundancyThreshold is the same idea: from it a load
// values a unit less for each kept unit this similar.
func WithRedundancyThreshold(t float64) Option { return func(o *options) { o.Redundancy = t } }

// WithMergeThreshold is [WithRedundancyThreshold].
//
// Deprecated: use [WithRedundancyThreshold], the name both engram memories
// share.
func WithMergeThreshold(t float64) Option { return WithRedundancyThreshold(t) }

// WithDiscount sets the value model's discount γ, in [0, 1). Default 0.9.
func WithDiscount(g float64) Option { return func(o *options) { o.discount = g } }

// WithCandidates sets how many nearest units a load considers before
// fusing value and packing the budget. Default 0: one per 16 tokens of
// budget, between 32 and 256 (one per 8 recalled the same on real
// dialogue, to 0.001, at half the speed).
func WithCandidates(n int) Option { return func(o *options) { o.candidates = n } }

// WithDepartedUnits sets how many units that left memory (evicted,
// overwritten or never stored) [Memory.ExplainUnit] can still account
// for. Default 4096.
func WithDepartedUnits(n int) Option { return func(o *options) { o.departed = n } }

// WithHistory is [WithDepartedUnits]: the name read as if it took a chat
// history, which [WithChatHistory] does.
//
// Deprecated: use WithDepartedUnits.
func WithHistory(n int) Option { return WithDepartedUnits(n) }

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

// WithEncoding selects the tiktoken encoding used to count tokens. Default
// [tokens.CL100kBase]; [tokens.O200kBase] is the other embedded one. A
// durable memory reopened with another encoding recounts its units.
func WithEncoding(e tokens.Encoding) Option { return func(o *options) { o.Encoding = e } }

// WithTokenCounter replaces the exact tiktoken counter. For the budget
// to hold, c must be additive over lines that end in "\n"; a count below
// zero is taken as 0. Default: the exact counter of [WithEncoding]'s
// encoding.
func WithTokenCounter(c engram.TokenCounter) Option { return func(o *options) { o.Counter = c } }

// WithLogger sets where the memory logs what it skips rather than fails
// on: units of another embedding dimension found on open, and, in the
// store [WithPath] opens, damaged records. One Warn record each. Default
// slog.Default(). A store from [WithStore] logs on its own.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.Logger = l } }

// WithGate lets a learned gate (package gate) correct the memory's
// priorities: each priority the memory sets on deciding about a unit, and
// each consolidation boost, is multiplied by 2·g.Score(f), f the unit's
// features at admission; what follows a load teaches g about the units it
// returned (Hindsight when a positive δ consolidates them, Observe(f, 0)
// when a negative reward follows). The gate's state is saved with the
// memory's and restored into g when a durable memory opens. g may be
// shared with other memories only if they are to learn one gate together.
// Default nil: the hand-set policy alone.
func WithGate(g *gate.Gate) Option { return func(o *options) { o.Gate = g } }

// WithChatHistory mirrors the whole transcript to h, as langchaingo's
// memory.WithChatHistory keeps one: every step SaveContext and Observe
// record is added to h in order, as a message of its role with the text
// the memory stores (Observe's with its kind: "tool_error: …"), while the
// memory decides what a load shows. Documents added as a vector store, and
// units a working tier demotes, are not part of the transcript. The
// history is written first: if a write fails, the call returns an error
// wrapping it and the memory records nothing (the messages before the
// failed one stay in h); if the memory then fails (a store error), h holds
// the turn and the error says the memory failed. [Memory.Clear] clears h
// first. Default nil: no history.
func WithChatHistory(h schema.ChatMessageHistory) Option { return func(o *options) { o.Chat = h } }

// WithFacts has ex read the facts each unit states as it is stored
// ([engram.Fact]), whichever call stores it. ex runs outside the memory's
// lock and is given the current value of the slots the memory knows; a
// unit that arrives with facts (one a working context demotes) keeps them
// and is not read again. The facts are stored with the unit. At a load, a
// candidate one of whose slots a newer unit gives another value is
// superseded: the newer unit joins the candidates with at least the old
// one's score, and the old one keeps half of its own ([Memory.Explain]
// names the newer unit). A step that gives a known slot another value is
// news however familiar its words: it never merges into a stored unit, and
// it is kept at least where, and with at least the priority, the statement
// it supersedes is. The units of one call are read a turn at a time, the
// turns at once (at most four calls). An error or a panic of ex is logged
// ([WithLogger]), counted ([Memory.Stats]) and passed to
// [WithErrorHandler]'s handler, and the unit is stored without facts: the
// save goes on. A save whose context is done before ex returns (ex ran
// past the deadline, say) returns within moments with the context's
// error, the call counted and passed on too, and stores nothing: what
// the caller gave up on is not stored. ratedistortion.WithFacts answers
// both the same way. ex must not be nil. Default: none, and units carry
// no facts.
func WithFacts(ex engram.FactExtractor) Option {
	return func(o *options) { o.Facts, o.FactsSet = ex, true }
}

// WithErrorHandler has h told of every failure of what was plugged into
// the memory: the fact extractor ([WithFacts]), and an embedder and a chat
// history given as options. Each call into them returned an error,
// panicked (the error wraps [engram.ErrPanicked]) or was still running at
// the caller's deadline (it wraps the context's error). The memory
// survives an extractor's failure: the unit is stored without facts, so h
// and [Memory.Stats] are how a caller sees it. h runs on the caller's
// goroutine, outside the memory's lock, and must not block for long.
// Default nil: failures are logged and counted only.
// ratedistortion.WithErrorHandler is the same.
func WithErrorHandler(h func(error)) Option { return func(o *options) { o.OnError = h } }

// WithMaxMessageBytes refuses a message longer than n bytes (as stored:
// valid UTF-8, trailing white space dropped): the call that carries it
// (SaveContext, Observe, AddDocuments) returns an error wrapping
// [engram.ErrTooLarge] and records nothing; [Memory.Demote] skips such a
// unit, logged, so that one unit never holds back a working tier's
// queue. Without a limit a message of any size is stored, at a cost
// linear in its size: only its first 64 KiB are analysed (its words,
// flags, facts and vector come from them), its tokens are counted whole,
// about 0.1 s a MiB. Default 0: no limit; must not be negative.
// ratedistortion.WithMaxMessageBytes is the same.
func WithMaxMessageBytes(n int) Option { return func(o *options) { o.MaxBytes = n } }

// WithClock sets the clock that stamps units. Default time.Now.
func WithClock(now func() time.Time) Option { return func(o *options) { o.Now = now } }

func (o *options) validate() error {
	if err := o.Validate(); err != nil {
		return err
	}
	bad := o.Invalid
	switch {
	case o.HalfLife > 1e12:
		return bad("half-life %v is over 1e12 steps, which is as good as never", o.HalfLife)
	case o.shortTerm < 0:
		return bad("short-term size %d < 0", o.shortTerm)
	case !(o.discount >= 0 && o.discount < 1):
		return bad("discount %v not in [0, 1)", o.discount)
	case o.candidates < 0:
		return bad("candidates %d < 0", o.candidates)
	case o.departed < 0:
		return bad("departed units %d < 0", o.departed)
	case o.store != nil && memopts.NilPointer(o.store):
		return bad("store is a nil %T", o.store)
	case o.path != "" && o.store != nil:
		return bad("both a path and a store")
	case o.syncEvery < 0:
		return bad("sync interval %v < 0", o.syncEvery)
	case o.syncEvery > 0 && o.path == "":
		return bad("WithSyncEvery relaxes the store WithPath opens, and there is no path")
	case !o.ns.Valid():
		return bad("namespace %s is not UTF-8 without NUL", o.ns)
	}
	if o.MaxUnits == 0 {
		o.MaxUnits = noCap
	}
	if o.candidates == 0 {
		o.candidates = min(256, max(32, o.Budget/16))
	}
	// The default embedder compares GloVe beside hashed dimensions, so that
	// admission and merging see numbers and rare names (WithEmbedder).
	if err := o.Resolve(embed.WithGloVeShare(0.5), embed.WithDimensions(defaultHashDimensions)); err != nil {
		return err
	}
	return nil
}
