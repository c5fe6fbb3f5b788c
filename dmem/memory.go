package dmem

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/boltstore"
	"github.com/engram-go/engram/dmem/internal/nearby"
	"github.com/engram-go/engram/dmem/internal/quantile"
	"github.com/engram-go/engram/dmem/internal/value"
	"github.com/engram-go/engram/dmem/internal/vecindex"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/internal/credit"
	"github.com/engram-go/engram/internal/facts"
	plugin "github.com/engram-go/engram/internal/guard"
	"github.com/engram-go/engram/internal/memopts"
	"github.com/engram-go/engram/internal/memvars"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/vectorstores"
)

// Memory is a dopamine-gated long-term memory. See the package doc.
type Memory struct {
	opts options
	w    *writer // nil when in memory only
	own  bool    // the memory opened its store and closes it

	// seqMu serialises the steps, which take sequence numbers: a block of
	// them is reserved from the store outside mu (see lockSteps), and no
	// other step may take it meanwhile; a step waiting for it (behind a
	// chat history's write, say) gives up at its deadline. Taken before mu.
	seqMu plugin.Mutex

	mu        sync.RWMutex // guards everything below
	closed    bool
	ix        *vecindex.Index      // core units' vectors, in memory only; a store has its own
	words     *words               // resident units' words, for relevance
	lsh       *nearby.Index[*unit] // nil until the dimension is known
	probed    []nearby.Near[*unit] // the units a save's probe found close; scratch
	lexes     map[*unit]lexis      // the lexis of units a save compared with lately (lexisOf)
	byID      map[string]*unit     // resident units: core and short-term
	groups    map[int64][]*unit    // resident units by group
	heap      evictHeap            // core units, lowest priority on top
	short     []*unit              // short-term buffer, oldest first
	latest    []*unit              // the units made resident last, oldest first (a load keeps the newest: option.WithRecentMessages)
	gone      map[string]*unit     // units that left, for Explain; bounded
	goneOrder []int64              // sequence numbers of gone, oldest first
	meta      map[int64][]byte     // the metadata of documents AddDocuments added, by Seq, while resident or gone
	df        map[uint64]uint32    // steps seen per term, by termKey
	slots     facts.Slots          // the fact slots resident units state (option.WithFacts)
	slotVec   map[string][]float32 // each slot's words embedded, by key (slotVectors)
	seen      seenRing
	novelty   routeGate // gates reward-free novelty
	rpe       routeGate // gates reward prediction errors
	st        state
	pending   *pendingStep // the latest step, whose transition is open
	openHuman int64        // group of a human turn awaiting its reply, or -1
	openCall  int64        // group of the tool call the next tool results answer, or -1
	retrieved []string     // ids the latest load returned, until consolidated
	lastLoad  []string     // ids the latest LoadMemoryVariables returned
	dirty     map[*unit]struct{}
	seqEnd    int64 // sequence numbers below it, from st.Seq on, are reserved

	loaded  *loadNote      // what the latest LoadMemoryVariables weighed, for Explain
	cleared int64          // Clears so far: a load or recall that spans one records nothing
	rated   []cand         // what the latest load or Recall kept, as it weighed them: what a rating of it teaches from
	ratings *credit.Ledger // what ratings of loads taught (Reward)
}

var (
	_ schema.Memory            = (*Memory)(nil)
	_ vectorstores.VectorStore = (*Memory)(nil)
	_ engram.RewardSink        = (*Memory)(nil)
)

// state is what the memory has learned, persisted as one record.
type state struct {
	Seq, Group  int64
	Dim         int
	Value       value.Model
	Novelty     [2]quantile.Estimator
	RPE         [2]quantile.Estimator
	Rewards     int64   // rewards received
	RewardScale float64 // running mean of |r|
	MeanValue   float64 // running mean of V̄(s): what a next state is worth
	Steps       int64   // steps seen, stored or not
	Lines       string  // fingerprint of how lines are counted
	Gate        []byte  `json:",omitempty"` // the learned gate, in its own versioned format
	Kinds       []byte  `json:",omitempty"` // what ratings taught of the kinds of unit that answer (credit.Ledger.MarshalKinds)
	Ratings     []byte  `json:",omitempty"` // all that ratings taught (credit.Ledger.MarshalBinary), written by Close alone
}

// pendingStep is the latest step: its transition to the next step is open,
// and a reward may still attach to it.
type pendingStep struct {
	feat     value.Features
	u        *unit // where its statistics live (itself, or what it merged into)
	reward   float64
	rewarded bool
}

// New opens a memory. With no options it is in memory, embeds offline and
// returns at most 2000 tokens; [WithPath] or [WithStore] make it durable,
// restoring what its namespace ([WithNamespace]) holds. New starts no
// goroutine.
func New(ctx context.Context, opts ...Option) (*Memory, error) {
	if err := memvars.Context(ctx); err != nil {
		return nil, fmt.Errorf("dmem: new: %w", err)
	}
	o := defaults()
	if err := memopts.Build(&o, &o.Shared, opts, o.check); err != nil {
		return nil, err
	}
	m := &Memory{opts: o}
	m.reset()
	s, own := o.store, false
	if o.path != "" {
		b, err := boltstore.Open(ctx, o.path, boltstore.WithLogger(o.Logger), boltstore.WithSyncEvery(o.syncEvery))
		if err != nil {
			return nil, err
		}
		s, own = b, true
	}
	if s == nil {
		return m, nil
	}
	m.w, m.own = newWriter(s, o.ns), own
	if err := m.restore(ctx); err != nil {
		if own {
			s.Close()
		}
		return nil, err
	}
	return m, nil
}

// checkEmbedder refuses a store whose vectors another embedder made: every
// save and load would fail on their length. It embeds one text when the
// embedder's length is not known in advance.
func (m *Memory) checkEmbedder(ctx context.Context) error {
	if m.st.Dim == 0 {
		return nil
	}
	n := m.opts.Layout.Dims
	if n == 0 {
		v, err := m.opts.Embedder.EmbedQuery(ctx, "dimension check")
		if err != nil {
			return fmt.Errorf("dmem: open: embed: %w", err)
		}
		n = len(v)
	}
	if n != m.st.Dim {
		return fmt.Errorf("dmem: open: the store of namespace %s holds vectors of %d dimensions, the embedder gives %d: open it with the embedder that wrote it (whose Clear starts it afresh): %w",
			m.w.ns, m.st.Dim, n, engram.ErrInvalidOption)
	}
	return nil
}

func (m *Memory) reset() {
	m.ix = vecindex.New()
	m.words = newWords(m.opts.Layout.Prefix, m.reindex)
	m.lsh = nil
	m.lexes = nil
	m.byID = make(map[string]*unit)
	m.groups = make(map[int64][]*unit)
	m.heap = nil
	m.short = nil
	m.latest = nil
	m.gone = make(map[string]*unit)
	m.goneOrder = nil
	m.meta = make(map[int64][]byte)
	m.df = make(map[uint64]uint32)
	m.slots.Clear()
	m.slotVec = nil
	m.seen = seenRing{}
	m.novelty, m.rpe = noveltyGate(), rewardGate()
	m.st = state{Lines: m.opts.LinesFingerprint(false)}
	m.pending = nil
	m.openHuman, m.openCall = -1, -1
	m.retrieved = nil
	m.lastLoad = nil
	m.loaded = nil
	m.rated = nil
	m.ratings = credit.New()
	m.dirty = make(map[*unit]struct{})
	m.seqEnd = 0
}

// Close commits what is pending and releases the store, unless it came from
// [WithStore]: its opener closes that. It returns the error of that last
// commit, never one that an earlier call already returned; after a failed
// commit that no write has reloaded from yet ([ErrStore]), what is pending
// was built on the failed writes and is dropped. Later calls that return
// an error fail with [engram.ErrClosed]; Stats, Units, LastLoad and
// Explain still report what the memory held. Close itself may be called more than once.
func (m *Memory) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	var t *group
	clean := m.w == nil || !m.w.Stale()
	if clean {
		if m.w != nil && m.ratings.Touched() {
			// What ratings taught whole — the answers and the units'
			// standing beside the gate every commit keeps — goes down once,
			// here: a record rewritten at every save would carry it each time.
			m.st.Ratings, _ = m.ratings.MarshalBinary()
		}
		t = m.commit(m.batch())
	}
	from, end := m.st.Seq, m.seqEnd
	m.mu.Unlock()
	if m.w == nil {
		return nil
	}
	err := m.w.Wait(context.Background(), t)
	if r, ok := m.w.store.(store.Releaser); ok && clean && err == nil && from < end {
		// Give back the unused end of the block, so that a reopened memory
		// numbers on from here. A failed release only leaves a gap.
		_ = r.Release(context.Background(), m.w.ns, from, end)
	}
	if !m.own {
		return err
	}
	if cerr := m.w.store.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("dmem: close: %w", cerr)
	}
	return err
}

// writable returns why the memory takes no write now: it is closed, or a
// commit failed and the memory cannot reload from its store yet. After a
// failed commit the memory holds what the failed calls changed, which its
// store does not; it reloads from the store before it writes again, so
// that the failed writes cost themselves and nothing else (until then, a
// load may still return what they added). A reward finds no step to
// attach to after a reload. m.mu must be held.
func (m *Memory) writable(ctx context.Context, op string) error {
	if m.closed {
		return fmt.Errorf("dmem: %s: %w", op, engram.ErrClosed)
	}
	if m.w != nil && m.w.Stale() {
		if err := m.resync(ctx); err != nil {
			return fmt.Errorf("dmem: %s: %w", op, err)
		}
	}
	return nil
}

// resync reloads the memory from its store after a failed commit. If the
// store still fails, the memory stays stale and the next write tries
// again. m.mu must be held.
func (m *Memory) resync(ctx context.Context) error {
	m.w.Fresh()
	m.reset()
	err := m.restore(ctx)
	if err == nil {
		return nil
	}
	if !errors.Is(err, ErrStore) {
		err = fmt.Errorf("%w: reload after a failed commit: %w", ErrStore, err)
	}
	m.w.Fail(err)
	return err
}

// GetMemoryKey returns the key the history is returned under.
func (m *Memory) GetMemoryKey(context.Context) string { return m.opts.MemoryKey }

// MemoryVariables returns the one key LoadMemoryVariables sets.
func (m *Memory) MemoryVariables(context.Context) []string { return []string{m.opts.MemoryKey} }

// Clear forgets everything, durably. With [option.WithChatHistory] it clears the
// history first, and if that fails returns its error and forgets nothing.
func (m *Memory) Clear(ctx context.Context) error {
	if err := memvars.Context(ctx); err != nil {
		return fmt.Errorf("dmem: clear: %w", err)
	}
	if m.opts.Chat != nil {
		// No step between the two clears.
		if err := m.seqMu.Lock(ctx); err != nil {
			return fmt.Errorf("dmem: clear: %w", err)
		}
		defer m.seqMu.Unlock()
		if err := m.clearChat(ctx); err != nil {
			return err
		}
	}
	m.mu.Lock()
	if err := m.writable(ctx, "clear"); err != nil {
		m.mu.Unlock()
		return err
	}
	m.reset()
	m.cleared++
	b := m.batch()
	b.ops = append(b.ops, store.Clear())
	t := m.commit(b)
	m.mu.Unlock()
	return m.wait(ctx, t)
}

// Stats counts what the memory holds.
type Stats struct {
	// Core and Short are the units in core memory and the short-term buffer.
	Core, Short int
	// Steps is every step seen, stored or not.
	Steps int64
	// Rewards is the number of rewards that came with steps (a reward
	// Observed, or delivered by callbacks for a tool's result): what sets
	// how much value weighs in retrieval (Lambda). Ratings of a load
	// ([Memory.Reward]) teach the relevance of what it showed and are not
	// counted here.
	Rewards int64
	// Lambda is the current weight of relevance in retrieval.
	Lambda float64
	// Store names where the record is kept and how it is searched, such as
	// "bbolt, chromem-go exact search" or, from dmem/pgstore,
	// "postgres, exact scan over bytea embeddings".
	Store string
	// Failures counts the failed calls into what was plugged into the
	// memory (see [option.WithErrorHandler]).
	Failures engram.Failures
}

// Stats returns the memory's counts.
func (m *Memory) Stats() Stats {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return Stats{Core: m.heap.Len(), Short: len(m.short), Steps: m.st.Steps, Rewards: m.st.Rewards, Lambda: m.lambda(), Store: m.storeName(), Failures: m.opts.Guards.Failures()}
}

// storeName describes the memory's store.
func (m *Memory) storeName() string {
	if m.w == nil {
		return "memory, chromem-go exact search"
	}
	if s, ok := m.w.store.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%T", m.w.store)
}

// Unit returns a copy of the stored unit id and its route; ErrNotFound if
// it is not stored (see [Memory.ExplainUnit] for units that left). Its
// embedding is the vector the memory keeps, which with the default
// embedder has its hashed part rounded to 8 bits: at a cosine above 0.999
// with the embedder's.
func (m *Memory) Unit(id string) (engram.Unit, Route, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closed {
		return engram.Unit{}, 0, fmt.Errorf("dmem: unit %q: %w", id, engram.ErrClosed)
	}
	u, ok := m.byID[id]
	if !ok {
		return engram.Unit{}, 0, fmt.Errorf("dmem: unit %q: %w", id, engram.ErrNotFound)
	}
	return u.exported(m.words), u.Route, nil
}

// Units returns copies of every stored unit, core memory's and the
// short-term buffer's, oldest first, as ratedistortion's Buffer.Units
// returns its pool's.
func (m *Memory) Units() []engram.Unit { return m.units(func(Route) bool { return true }) }

// UnitsIn returns copies of the stored units of route r (core or short),
// oldest first.
func (m *Memory) UnitsIn(r Route) []engram.Unit { return m.units(func(x Route) bool { return x == r }) }

// units returns copies of the stored units whose route is kept, oldest first.
func (m *Memory) units(keep func(Route) bool) []engram.Unit {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []engram.Unit
	for _, u := range m.byID {
		if keep(u.Route) {
			out = append(out, u.exported(m.words))
		}
	}
	slices.SortFunc(out, func(a, b engram.Unit) int { return cmp.Compare(a.Seq, b.Seq) })
	return out
}

// line renders one unit as it appears in the history, newline included;
// the text's own line breaks start indented continuation lines.
func (m *Memory) line(r engram.Role, s string) string {
	return memvars.Line(m.prefix(r), s)
}

func (m *Memory) prefix(r engram.Role) string {
	return memvars.Label(r, m.opts.HumanPrefix, m.opts.AIPrefix)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func uniq(ts []string) []string {
	out := slices.Clone(ts)
	slices.Sort(out)
	return slices.Compact(out)
}

func short(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:37]) + "…"
	}
	return s
}

// storeFile names where s keeps its record, for errors: the embedded
// store's file, else what the store says it is.
func storeFile(s store.Store) string {
	if b, ok := s.(*boltstore.Store); ok {
		return b.Path()
	}
	if sv, ok := s.(fmt.Stringer); ok {
		return sv.String()
	}
	return fmt.Sprintf("%T", s)
}
