package dmem

import (
	"math"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/memopts"
	"github.com/engram-go/engram/option"
)

// Option configures a [Memory]: one of package option's, which every
// engram memory takes (option.WithTokenBudget, option.WithFacts, …), or
// one of this package's own. ratedistortion's own options are refused:
// its WithSummarizer and WithSummaryShare have no counterpart here, as a
// load leaves units out without a summary line standing for them (they
// stay in memory, and a later load may return them).
type Option = option.Option

// own returns this package's option name, which sets the memory's own
// options with set.
func own(name string, set func(*options)) Option { return memopts.Own("dmem", "dmem."+name, set) }

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

// defaultHashDimensions is the size of the default embedder's hashed half:
// enough to tell numbers and names apart, small enough that admission's
// nearest-neighbour search stays cheap.
const defaultHashDimensions = 128

// WithPath makes the memory durable: its record is kept in the embedded
// store ([boltstore.Open]) in dir, created if missing, and reopening dir restores
// it. The memory closes the store when it closes. Default "": in memory only.
func WithPath(dir string) Option { return own("WithPath", func(o *options) { o.path = dir }) }

// WithSyncEvery relaxes the durability of the store [WithPath] opens: a
// commit is written to the file but synced to disk at most once per every,
// at a later commit, and at Close. A process that crashes or is killed
// loses nothing (its writes are the system's); a power loss or a crash of
// the system may lose the saves of the last interval, or damage the file,
// which [Salvage] then copies from. Saves take a fraction of their time
// with an fsync each (see the package's BenchmarkInsert). Default 0: every
// commit is synced before the save that made it returns, one fsync shared
// by the saves that commit together. It applies to WithPath's store only.
func WithSyncEvery(every time.Duration) Option {
	return own("WithSyncEvery", func(o *options) { o.syncEvery = every })
}

// WithStore keeps the memory's record in s, which the caller opened (with
// [boltstore.Open], dmem/pgstore, or any implementation of [store.Store]) and
// closes after the memory: several memories, of one or several namespaces,
// may share it. Default nil: in
// memory only, unless [WithPath] is given; the two exclude each other.
func WithStore(s store.Store) Option { return own("WithStore", func(o *options) { o.store = s }) }

// WithNamespace sets the namespace the memory reads and writes in its
// store: user, agent and session, any of them empty, none holding invalid
// UTF-8 or a NUL byte. Memories of different
// namespaces share nothing, whatever store they share; memories of one
// namespace, in one or several processes, share its units. Default: the
// empty namespace.
func WithNamespace(user, agent, session string) Option {
	return own("WithNamespace", func(o *options) { o.ns = engram.Namespace{User: user, Agent: agent, Session: session} })
}

// WithCapacity is option.WithMaxUnits, for dmem alone.
//
// Deprecated: use option.WithMaxUnits, which every engram memory takes.
func WithCapacity(n int) Option {
	return own("WithCapacity", func(o *options) { o.MaxUnits, o.MaxUnitsSet = n, true })
}

// noCap is the capacity of a memory without a cap: more units than one
// process holds, and small enough for every store's integer columns.
const noCap = math.MaxInt32

// WithShortTerm sets the size of the short-term buffer, the window of recent
// units that did not earn a place in core memory. Default 32; 0 disables it.
func WithShortTerm(n int) Option { return own("WithShortTerm", func(o *options) { o.shortTerm = n }) }

// WithMergeThreshold is option.WithRedundancyThreshold, for dmem alone.
//
// Deprecated: use option.WithRedundancyThreshold, which every engram
// memory takes.
func WithMergeThreshold(t float64) Option {
	return own("WithMergeThreshold", func(o *options) { o.Redundancy = t })
}

// WithDiscount sets the value model's discount γ, in [0, 1). Default 0.9.
func WithDiscount(g float64) Option { return own("WithDiscount", func(o *options) { o.discount = g }) }

// WithCandidates sets how many nearest units a load considers before
// fusing value and packing the budget. Default 0: one per 16 tokens of
// budget, between 32 and 256 (one per 8 recalled the same on real
// dialogue, to 0.001, at half the speed).
func WithCandidates(n int) Option {
	return own("WithCandidates", func(o *options) { o.candidates = n })
}

// WithDepartedUnits sets how many units that left memory (evicted,
// overwritten or never stored) [Memory.ExplainUnit] can still account
// for. Default 4096.
func WithDepartedUnits(n int) Option {
	return own("WithDepartedUnits", func(o *options) { o.departed = n })
}

// WithHistory is [WithDepartedUnits]: the name read as if it took a chat
// history, which option.WithChatHistory does.
//
// Deprecated: use WithDepartedUnits.
func WithHistory(n int) Option { return WithDepartedUnits(n) }

// check checks the memory's own options, after the shared ones, and fills
// in what they leave to the memory.
func (o *options) check() error {
	bad := o.Invalid
	switch {
	case o.HalfLife > 1e12:
		return bad("option.WithHalfLife(%v): over 1e12 steps, which is as good as never", o.HalfLife)
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
	// admission and merging see numbers and rare names (option.WithEmbedder).
	if err := o.Resolve(embed.WithGloVeShare(0.5), embed.WithDimensions(defaultHashDimensions)); err != nil {
		return err
	}
	return nil
}
