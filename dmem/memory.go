package dmem

import (
	"container/heap"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/internal/credit"
	"github.com/engram-go/engram/internal/facts"
	plugin "github.com/engram-go/engram/internal/guard"
	"github.com/engram-go/engram/internal/memvars"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/internal/text"
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
	ix        *index               // core units' vectors, in memory only; a store has its own
	words     *words               // resident units' words, for relevance
	lsh       *lsh                 // nil until the dimension is known
	byID      map[string]*unit     // resident units: core and short-term
	groups    map[int64][]*unit    // resident units by group
	heap      evictHeap            // core units, lowest priority on top
	short     []*unit              // short-term buffer, oldest first
	gone      map[string]*unit     // units that left, for Explain; bounded
	goneOrder []int64              // sequence numbers of gone, oldest first
	df        map[string]uint32    // steps seen per term
	slots     facts.Slots          // the fact slots resident units state (WithFacts)
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
	Value       valueModel
	Novelty     [2]quantile
	RPE         [2]quantile
	Rewards     int64   // rewards received
	RewardScale float64 // running mean of |r|
	MeanValue   float64 // running mean of V̄(s): what a next state is worth
	Steps       int64   // steps seen, stored or not
	Lines       string  // fingerprint of how lines are counted
	Gate        []byte  `json:",omitempty"` // the learned gate, in its own versioned format
	Kinds       []byte  `json:",omitempty"` // what ratings taught of the kinds of unit that answer (credit.Ledger.MarshalKinds)
}

// pendingStep is the latest step: its transition to the next step is open,
// and a reward may still attach to it.
type pendingStep struct {
	feat     features
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
	for _, opt := range opts {
		opt(&o)
	}
	if err := o.validate(); err != nil {
		return nil, err
	}
	m := &Memory{opts: o}
	m.reset()
	s, own := o.store, false
	if o.path != "" {
		b, err := openStore(ctx, o.path)
		if err != nil {
			return nil, err
		}
		b.logger = o.logger
		b.relax(o.syncEvery)
		s, own = b, true
	}
	if s == nil {
		return m, nil
	}
	m.w, m.own = newWriter(s, o.ns), own
	if err := m.load(ctx); err != nil {
		if own {
			s.Close()
		}
		return nil, err
	}
	return m, nil
}

func (m *Memory) reset() {
	ix, err := newIndex()
	if err != nil {
		panic(err) // creating a collection in a fresh in-memory DB cannot fail
	}
	m.ix = ix
	m.words = newWords(relevancePrefix(m.opts.embedder))
	m.lsh = nil
	m.byID = make(map[string]*unit)
	m.groups = make(map[int64][]*unit)
	m.heap = nil
	m.short = nil
	m.gone = make(map[string]*unit)
	m.goneOrder = nil
	m.df = make(map[string]uint32)
	m.slots.Clear()
	m.slotVec = nil
	m.seen = seenRing{}
	m.novelty, m.rpe = noveltyGate(), rewardGate()
	m.st = state{Lines: m.linesFingerprint()}
	m.pending = nil
	m.openHuman, m.openCall = -1, -1
	m.retrieved = nil
	m.lastLoad = nil
	m.loaded = nil
	m.ratings = credit.New()
	m.dirty = make(map[*unit]struct{})
	m.seqEnd = 0
}

// linesFingerprint identifies how unit token counts were made, so that a
// reopened memory with other prefixes, another counter or another rendering
// recounts them. The sample has a line break and a long run of mixed
// digits, which the counter of earlier versions undercounted; "escaped"
// names the rendering of line breaks and control characters (memvars.Line;
// "indented", before it, left control characters as they were).
func (m *Memory) linesFingerprint() string {
	sample := m.line(engram.RoleHuman, "tokens 12345 ünïcödé\nAI: "+strings.Repeat("1\u0663", 350))
	return fmt.Sprintf("%s|%s|%d|escaped", m.opts.humanPrefix, m.opts.aiPrefix, m.opts.counter(sample))
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
	clean := m.w == nil || !m.w.isStale()
	if clean {
		t = m.commit(m.batch())
	}
	from, end := m.st.Seq, m.seqEnd
	m.mu.Unlock()
	if m.w == nil {
		return nil
	}
	err := m.w.wait(context.Background(), t)
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
	if m.w != nil && m.w.isStale() {
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
	m.w.fresh()
	m.reset()
	err := m.load(ctx)
	if err == nil {
		return nil
	}
	if !errors.Is(err, ErrStore) {
		err = fmt.Errorf("%w: reload after a failed commit: %w", ErrStore, err)
	}
	m.w.fail(err)
	return err
}

// GetMemoryKey returns the key the history is returned under.
func (m *Memory) GetMemoryKey(context.Context) string { return m.opts.memoryKey }

// MemoryVariables returns the one key LoadMemoryVariables sets.
func (m *Memory) MemoryVariables(context.Context) []string { return []string{m.opts.memoryKey} }

// SaveContext records the human message from inputs and the AI reply from
// outputs as two steps of one group (kept or dropped together when
// retrieved; each is routed on its own). Keys are chosen as [WithInputKey]
// and [WithOutputKey] say; values must be strings. An empty message is
// skipped; both empty, a missing key or a non-string value give an error
// wrapping [engram.ErrInvalidInput], and nothing is recorded. Invalid UTF-8
// is stored with U+FFFD in place of bad bytes, and trailing white space is
// dropped (it would merge with the line break and spoil the exact count).
func (m *Memory) SaveContext(ctx context.Context, inputs, outputs map[string]any) error {
	if err := memvars.Context(ctx); err != nil {
		return fmt.Errorf("dmem: save: %w", err)
	}
	in, err := memvars.Input(inputs, m.opts.inputKey, m.opts.memoryKey)
	if err != nil {
		return fmt.Errorf("dmem: save inputs: %w", err)
	}
	out, err := memvars.Output(outputs, m.opts.outputKey, m.opts.memoryKey)
	if err != nil {
		return fmt.Errorf("dmem: save outputs: %w", err)
	}
	var ds []draft
	if strings.TrimSpace(in) != "" {
		ds = append(ds, draft{role: engram.RoleHuman, text: in, chat: true})
	}
	if strings.TrimSpace(out) != "" {
		ds = append(ds, draft{role: engram.RoleAI, text: out, chat: true})
	}
	if len(ds) == 0 {
		return fmt.Errorf("dmem: save: empty input and output: %w", engram.ErrInvalidInput)
	}
	_, err = m.record(ctx, ds)
	return err
}

// Observe records an agent step that did not pass through SaveContext — a
// tool call or result, an error, the finish — and attaches s.Reward to it
// when non-zero. Empty text or a non-finite reward give an error wrapping
// [engram.ErrInvalidInput].
func (m *Memory) Observe(ctx context.Context, s engram.Step) error {
	if err := memvars.Context(ctx); err != nil {
		return fmt.Errorf("dmem: observe: %w", err)
	}
	if !finite(s.Reward) {
		return fmt.Errorf("dmem: observe: reward %v: %w", s.Reward, engram.ErrInvalidInput)
	}
	if strings.TrimSpace(s.Text) == "" {
		return fmt.Errorf("dmem: observe: empty text: %w", engram.ErrInvalidInput)
	}
	role, text := memvars.Step(s)
	d := draft{role: role, kind: s.Kind, text: text, at: s.Time, reward: s.Reward, chat: true}
	_, err := m.record(ctx, []draft{d})
	return err
}

// Reward takes the outcome of what the agent did last. A rating of an
// answer — a reward after a load, right after it or after the SaveContext
// of the rated exchange, as an agent executor gives it — is about what
// that load showed, read on [−1, 1] (1: the answer had all it needed; −1:
// none of it; beyond is clamped). It is credited to the load as
// ratedistortion credits it (see the package doc, "Learning from
// ratings"): asked again in nearly the same words, an answer rated up is
// shown again and one rated down makes room for others, and every unit
// shown gains or loses standing, the rating less the running mean, which
// moves its relevance for every later question. A learned gate
// ([WithGate]) learns from the units most likely to have answered. The
// rating does not move the latest step's route: it is not about that step.
//
// Any other reward attaches to the latest step, and judges its surprise:
// the reward prediction error δ = r + γ·E[V̄(s')] − V(s), with the next
// state's value estimated by the running mean until the next step arrives
// (the TD update then uses the real one). A surprising step is moved to
// core memory; a positive δ also consolidates the units the latest search
// returned; a negative one teaches a learned gate that they were not
// needed. Until some such reward is non-zero, rewards are recorded but
// judge nothing: there is no scale to measure surprise against.
//
// r must be finite ([engram.ErrInvalidInput]) and is clamped to ±1e12;
// with neither a load to rate nor a step it fails with
// [engram.ErrNotFound].
func (m *Memory) Reward(ctx context.Context, r float64) error {
	if err := memvars.Context(ctx); err != nil {
		return fmt.Errorf("dmem: reward: %w", err)
	}
	if !finite(r) {
		return fmt.Errorf("dmem: reward %v: %w", r, engram.ErrInvalidInput)
	}
	m.mu.Lock()
	if err := m.writable(ctx, "reward"); err != nil {
		m.mu.Unlock()
		return err
	}
	if m.ratings.Pending() {
		adv, _ := m.ratings.Rate(r)
		m.learnFromRating(adv)
		m.mu.Unlock()
		return nil
	}
	if m.pending == nil {
		m.mu.Unlock()
		return fmt.Errorf("dmem: reward: no step to attach it to: %w", engram.ErrNotFound)
	}
	b := m.batch()
	m.reward(r, b)
	t := m.commit(b)
	m.mu.Unlock()
	return m.wait(ctx, t)
}

// reward attaches r to the pending step, which must exist, and judges the
// surprise. m.mu must be held.
func (m *Memory) reward(r float64, b *batch) {
	r = saturate(r)
	p := m.pending
	p.reward = saturate(p.reward + r)
	p.rewarded = true
	p.u.Reward = saturate(p.u.Reward + r)
	m.st.Rewards++
	if m.st.Rewards == 1 {
		m.st.RewardScale = math.Abs(r)
	} else {
		m.st.RewardScale += 0.05 * (math.Abs(r) - m.st.RewardScale)
	}
	if m.st.RewardScale == 0 {
		// Only zero rewards so far: no scale to judge surprise against
		// (the gate's midpoint would be 0, and every step surprising).
		b.put(p.u)
		return
	}
	delta := p.reward + m.opts.discount*m.st.MeanValue - m.st.Value.value(&p.feat)
	if r < 0 && delta <= 0 {
		// The units the last load returned did not help. Blame them once:
		// later rewards judge later loads.
		m.blame()
		m.retrieved = nil
	}
	m.judge(p.u, delta, EventRewarded, b)
}

// maxReward bounds a reward, and the sums of rewards a step or a unit
// collects, so that no statistic overflows to infinity (which no store
// accepts).
const maxReward = 1e12

// saturate returns r within ±maxReward.
func saturate(r float64) float64 { return max(-maxReward, min(maxReward, r)) }

// draft is a step prepared outside the lock.
type draft struct {
	role   engram.Role
	kind   engram.StepKind
	text   string
	at     time.Time
	reward float64 // attached as the step is taken, under the same lock
	meta   []byte
	force  bool // an explicit add: core memory, whatever the gate says
	chat   bool // part of the transcript: mirrored to WithChatHistory's history
	handed bool // handed down by a working context (Demote): not a new turn

	vec     []float32
	tokens  int
	flags   engram.Flags
	keys    []string        // terms and neighbouring pairs, for novelty
	salient map[string]bool // terms that are numbers or names
	lex     lexis           // what the words index keeps of the text
	fs      []engram.Fact   // the facts it states: carried in, or read by WithFacts
}

// record embeds and counts drafts, then places them in order and commits.
// It returns the ids of the units the steps became.
func (m *Memory) record(ctx context.Context, ds []draft) ([]string, error) {
	texts := make([]string, len(ds)) // what is analysed of each (text.Excerpt)
	for i := range ds {
		ds[i].text = memvars.Clean(ds[i].text)
		if err := m.fits(ds[i].text); err != nil {
			return nil, fmt.Errorf("dmem: message %d: %w", i+1, err)
		}
		texts[i] = text.Excerpt(ds[i].text)
	}
	vecs, err := m.opts.embedder.EmbedDocuments(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("dmem: embed: %w", err)
	}
	if len(vecs) != len(ds) {
		return nil, fmt.Errorf("dmem: embedder returned %d vectors for %d texts: %w", len(vecs), len(ds), engram.ErrInvalidInput)
	}
	for i := range ds {
		d := &ds[i]
		if d.vec, err = normalised(vecs[i]); err != nil {
			return nil, fmt.Errorf("dmem: embed %q: %w", short(d.text), err)
		}
		if i > 0 && len(d.vec) != len(ds[0].vec) {
			return nil, fmt.Errorf("dmem: embedder returned vectors of %d and %d dimensions: %w", len(ds[0].vec), len(d.vec), engram.ErrInvalidInput)
		}
		d.tokens = m.opts.counter(m.line(d.role, d.text))
		d.flags = text.Flags(texts[i])
		terms := text.Terms(texts[i])
		d.keys = keys(terms)
		d.salient = salientTerms(texts[i])
		d.lex = lexis{terms: terms, names: relevance.Names(texts[i])}
	}
	if err := m.readFacts(ctx, ds); err != nil {
		return nil, err
	}

	if err := m.seqMu.Lock(ctx); err != nil {
		return nil, fmt.Errorf("dmem: save: %w", err)
	}
	if err := m.mirror(ctx, ds); err != nil {
		m.seqMu.Unlock()
		return nil, err
	}
	if err := m.lockSteps(ctx, len(ds), len(ds[0].vec)); err != nil {
		m.seqMu.Unlock()
		return nil, err
	}
	b := m.batch()
	ids := make([]string, len(ds))
	now := m.opts.now()
	for i := range ds {
		if ds[i].at.IsZero() {
			ds[i].at = now
		}
		ids[i] = m.step(&ds[i], b)
		if ds[i].role == engram.RoleHuman && !ds[i].handed {
			m.ratings.Saved()
		}
		if r := ds[i].reward; r != 0 {
			// A step's reward judges the step; if it follows a load — a
			// test run on code written from what the load showed — it
			// rates that load too, as a Reward would.
			if m.ratings.Pending() {
				adv, _ := m.ratings.Rate(r)
				m.learnFromRating(adv)
			}
			m.reward(r, b)
		}
	}
	t := m.commit(b)
	m.mu.Unlock()
	m.seqMu.Unlock()
	return ids, m.wait(ctx, t)
}

// fits refuses a text longer than [WithMaxMessageBytes] allows.
func (m *Memory) fits(s string) error {
	if n := len(s); m.opts.maxBytes > 0 && n > m.opts.maxBytes {
		return fmt.Errorf("%d bytes, more than %d: %w", n, m.opts.maxBytes, engram.ErrTooLarge)
	}
	return nil
}

// checkDim fixes the dimension on the first vector and refuses others.
// m.mu must be held.
func (m *Memory) checkDim(n int) error {
	switch {
	case n == 0:
		return fmt.Errorf("dmem: embedder returned an empty vector: %w", engram.ErrInvalidInput)
	case n > maxDim:
		return fmt.Errorf("dmem: embedder returned %d dimensions, more than %d: %w", n, maxDim, engram.ErrInvalidInput)
	case m.st.Dim == 0:
		m.st.Dim = n
	case n != m.st.Dim:
		return fmt.Errorf("dmem: embedding has %d dimensions, memory has %d: %w", n, m.st.Dim, engram.ErrInvalidInput)
	}
	if m.lsh == nil {
		m.lsh = newLSH(m.st.Dim)
	}
	return nil
}

// reserveBlock is how many sequence numbers a memory takes from its store
// at a time: one round trip per block, not per step.
const reserveBlock = 64

// lockSteps locks m.mu for n new steps with vectors of dim dimensions: the
// memory takes writes, the dimension fits, and the next n sequence numbers
// are reserved so that no other writer of the namespace uses them. The
// reservation, a round trip to a remote store, runs outside m.mu, so that
// loads and Stats never wait on the store; m.seqMu, which the caller holds,
// keeps the block for these steps. m.mu is held on success only.
func (m *Memory) lockSteps(ctx context.Context, n, dim int) error {
	var first, end int64 // a block reserved outside the lock
	for {
		m.mu.Lock()
		err := m.writable(ctx, "save")
		if err == nil {
			err = m.checkDim(dim)
		}
		if err != nil {
			m.mu.Unlock()
			return err
		}
		if m.w == nil || m.st.Seq+int64(n) <= m.seqEnd {
			return nil
		}
		if end-first >= int64(n) {
			// Other writers may have taken numbers in between: the step
			// clock jumps with them, so priorities decay with the
			// namespace's steps.
			m.st.Seq, m.seqEnd = first, end
			return nil
		}
		m.mu.Unlock()
		k := max(n, reserveBlock)
		f, err := m.w.store.Reserve(ctx, m.w.ns, k)
		if err != nil {
			if ctx.Err() == nil && transient(err) {
				err = fmt.Errorf("%w: %w", ErrStore, err)
			}
			return fmt.Errorf("dmem: reserve: %w", err)
		}
		first, end = f, f+int64(k)
	}
}

// step turns one draft into a unit, judges its novelty, routes it, and
// closes the previous step's transition. m.mu must be held.
func (m *Memory) step(d *draft, b *batch) string {
	seq := m.st.Seq
	m.st.Seq++
	m.st.Steps++
	u := &unit{
		Unit: engram.Unit{
			ID: idOf(seq), Seq: seq, Group: m.groupFor(d.role), Role: d.role, Text: d.text,
			Time: d.at, Tokens: d.tokens, Embedding: d.vec, Flags: d.flags, Facts: d.fs,
		},
		Kind: d.kind, Meta: d.meta, heapIdx: -1, slot: -1, Fresh: -1, facts: facts.Turn(text.Excerpt(d.text), d.role.String()),
	}
	near, sim := m.lsh.nearest(d.vec)
	c := max(sim, m.seen.best(d.vec))
	u.Novelty = lexicalNovelty(d.keys, d.salient, d.flags, m.df) * (1 - math.Pow(c, 6))
	f := stepFeatures(u.Role, u.Kind, u.Flags, u.Tokens, u.Novelty, d.vec)
	m.complete(&f, b)

	g := m.novelty.value(u.Novelty, 0)
	m.novelty.observe(u.Novelty)
	u.Delta, u.Gate = u.Novelty, g
	home := u
	var dup *unit
	// A step that gives a fact another value is news, however familiar
	// its words: it never merges (into the very statement it overturns,
	// perhaps, said again), and it is kept at least where and as long as
	// the statement it supersedes.
	old := m.successor(-1, d.fs)
	if !d.force && old == nil {
		dup = m.duplicate(d.vec, d.text, d.lex, near, sim)
	}
	switch {
	case dup != nil:
		m.merge(dup, u, g, b)
		u.Route = RouteMerged
		u.record(Event{Step: seq, Kind: EventRouted, Route: RouteMerged, Delta: u.Delta, Gate: g})
		m.bury(u, b)
		home = dup
	default:
		r, p := route(g), priority(g, u.Novelty, m.novelty.mid(0))*m.learned(u)
		if d.force {
			r = RouteCore
		}
		if old != nil {
			// Routes rise from nowhere to short to core; old is resident.
			r, p = max(r, old.Route), max(p, m.priorityAt(old, seq))
		}
		m.place(u, r, p, EventRouted, d.lex, b)
	}

	for _, t := range d.keys {
		m.df[t]++
		b.term(t)
	}
	m.seen.add(d.vec)
	m.pending = &pendingStep{feat: f, u: home}
	return u.ID
}

// complete closes the pending step's transition to a step with features
// next: one TD(0) update; once rewards exist, an unrewarded step whose δ
// turns out surprising is promoted too. m.mu must be held.
func (m *Memory) complete(next *features, b *batch) {
	p := m.pending
	if p == nil {
		return
	}
	m.pending = nil
	delta := m.st.Value.learn(&p.feat, next, p.reward, m.opts.discount)
	if next != nil {
		m.st.MeanValue += 0.05 * (m.st.Value.target(next) - m.st.MeanValue)
	}
	if m.st.Rewards > 0 && !p.rewarded {
		m.judge(p.u, delta, EventDecided, b)
	}
	if p.u.Route == RouteNowhere && p.u.Embedding != nil {
		p.u.Embedding = nil // no reward can resurrect it now
	}
}

// judge gates a reward prediction error δ for u: a surprising δ moves u to
// core memory (from the short-term buffer, or back from nowhere) and raises
// its priority; a positive δ consolidates what the latest load returned.
// m.mu must be held.
func (m *Memory) judge(u *unit, delta float64, kind EventKind, b *batch) {
	floor := 0.25 * m.st.RewardScale
	g := m.rpe.value(delta, floor)
	mid := m.rpe.mid(floor)
	m.rpe.observe(delta)
	m.boost(delta, mid, b)
	if g <= u.Gate && kind == EventDecided {
		return // nothing new: keep histories short
	}
	if g > u.Gate {
		u.Delta, u.Gate = delta, g
	}
	p := priority(g, math.Abs(delta), mid) * m.learned(u)
	switch {
	case route(g) == RouteCore && u.Route != RouteCore && u.Route != RouteMerged && len(u.Embedding) == m.st.Dim:
		if u.Route == RouteShort {
			m.unplace(u)
		} else {
			m.unbury(u, b)
		}
		m.place(u, RouteCore, p, EventPromoted, lexisOf(u.Text), b)
		return
	case u.Route == RouteCore && p > m.priorityAt(u, m.st.Seq):
		m.updatePriority(u, 1, 0, p, b)
	}
	u.record(Event{Step: m.st.Seq, Kind: kind, Route: u.Route, Delta: delta, Gate: g, Priority: m.priorityAt(u, m.st.Seq)})
	b.put(u)
}

// place puts u where route r says, with priority p; lx is what the words
// index keeps of its text. m.mu must be held.
func (m *Memory) place(u *unit, r Route, p float64, kind EventKind, lx lexis, b *batch) {
	u.Route = r
	u.LogP = m.logP(p, m.st.Seq)
	u.record(Event{Step: m.st.Seq, Kind: kind, Route: r, Delta: u.Delta, Gate: u.Gate, Priority: p})
	if r == RouteNowhere {
		m.bury(u, b)
		return
	}
	m.resident(u, lx)
	b.put(u)
	if r == RouteCore {
		heap.Push(&m.heap, u)
		// The store's copy may be a short-term record that keeps its priority.
		b.ops = append(b.ops, store.Priority(u.Seq, m.age(), 0, p, 0))
		b.core = true
		if m.w == nil && !zero(u.Embedding) {
			// Only fails on an empty id or vector, which cannot happen here.
			if err := m.ix.add(context.Background(), u.ID, u.Embedding); err == nil {
				u.indexed = true
			}
		}
		m.evictOverflow(b)
		return
	}
	m.short = append(m.short, u)
	for len(m.short) > m.opts.shortTerm {
		old := m.short[0]
		m.unplace(old)
		old.record(Event{Step: m.st.Seq, Kind: EventOverwritten, Route: RouteNowhere})
		old.Route = RouteNowhere
		m.bury(old, b)
	}
}

// resident makes u findable: by id, by group, by LSH, by its words (lx).
func (m *Memory) resident(u *unit, lx lexis) {
	m.byID[u.ID] = u
	m.groups[u.Group] = append(m.groups[u.Group], u)
	m.lsh.add(u)
	m.words.add(u, lx)
	m.slots.Add(u.Seq, u.Facts)
}

// unplace removes u from wherever it is resident. m.mu must be held.
func (m *Memory) unplace(u *unit) {
	delete(m.byID, u.ID)
	if g := slices.DeleteFunc(m.groups[u.Group], func(x *unit) bool { return x == u }); len(g) > 0 {
		m.groups[u.Group] = g
	} else {
		delete(m.groups, u.Group)
	}
	m.lsh.remove(u)
	m.words.remove(u)
	m.slots.Remove(u.Seq, u.Facts)
	if u.heapIdx >= 0 {
		heap.Remove(&m.heap, u.heapIdx)
	}
	if u.indexed {
		_ = m.ix.remove(context.Background(), u.ID) // deleting by id cannot fail
		u.indexed = false
	}
	if i := slices.Index(m.short, u); i >= 0 {
		m.short = slices.Delete(m.short, i, i+1)
	}
}

// bury keeps the history of a unit that is not (or no longer) stored, within
// the bound of WithHistory. m.mu must be held.
func (m *Memory) bury(u *unit, b *batch) {
	if u.Seq != m.st.Seq-1 || u.Route == RouteMerged {
		u.Embedding = nil // only the newest step can still be rewarded back
	}
	m.gone[u.ID] = u
	m.goneOrder = append(m.goneOrder, u.Seq)
	b.put(u)
	m.trimHistory(b)
}

// trimHistory forgets the oldest departed units past the bound of
// WithHistory, writing each as it goes to b. m.mu must be held.
func (m *Memory) trimHistory(b *batch) {
	for len(m.goneOrder) > m.opts.history {
		old := idOf(m.goneOrder[0])
		m.goneOrder = m.goneOrder[1:]
		if x, ok := m.gone[old]; ok {
			delete(m.gone, old)
			b.put(x)
		}
	}
}

// unbury takes u out of the gone histories, to store it again.
func (m *Memory) unbury(u *unit, b *batch) {
	delete(m.gone, u.ID)
	if i := slices.Index(m.goneOrder, u.Seq); i >= 0 {
		m.goneOrder = slices.Delete(m.goneOrder, i, i+1)
	}
}

// groupFor assigns a group: a human turn opens one, the AI reply joins it,
// anything else stands alone. m.mu must be held.
func (m *Memory) groupFor(r engram.Role) int64 {
	g := m.st.Group
	switch r {
	case engram.RoleHuman:
		m.st.Group++
		m.openHuman = g
	case engram.RoleAI:
		if m.openHuman >= 0 {
			g = m.openHuman
		} else {
			m.st.Group++
		}
		m.openHuman = -1
	case engram.RoleToolCall:
		m.st.Group++
		m.openHuman, m.openCall = -1, g
	case engram.RoleToolResult:
		// A result answers the call just observed: the two are kept or
		// dropped together.
		if m.openCall >= 0 {
			g = m.openCall
		} else {
			m.st.Group++
		}
		m.openHuman = -1
	default:
		m.st.Group++
		m.openHuman, m.openCall = -1, -1
	}
	if r == engram.RoleHuman || r == engram.RoleAI {
		m.openCall = -1
	}
	return g
}

// Clear forgets everything, durably. With [WithChatHistory] it clears the
// history first, and if that fails returns its error and forgets nothing.
func (m *Memory) Clear(ctx context.Context) error {
	if err := memvars.Context(ctx); err != nil {
		return fmt.Errorf("dmem: clear: %w", err)
	}
	if m.opts.chat != nil {
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
	// Rewards is the number of rewards received.
	Rewards int64
	// Lambda is the current weight of relevance in retrieval.
	Lambda float64
	// Store names where the record is kept and how it is searched, such as
	// "bbolt, chromem-go exact search" or, from dmem/pgstore,
	// "postgres, exact scan over bytea embeddings".
	Store string
	// Failures counts the failed calls into what was plugged into the
	// memory (see [WithErrorHandler]).
	Failures engram.Failures
}

// Stats returns the memory's counts.
func (m *Memory) Stats() Stats {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return Stats{Core: m.heap.Len(), Short: len(m.short), Steps: m.st.Steps, Rewards: m.st.Rewards, Lambda: m.lambda(), Store: m.storeName(), Failures: m.opts.guards.Failures()}
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
// it is not stored (see [Memory.ExplainUnit] for units that left).
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
	return u.Unit, u.Route, nil
}

// Units returns copies of the stored units of route r (core or short),
// oldest first.
func (m *Memory) Units(r Route) []engram.Unit {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []engram.Unit
	for _, u := range m.byID {
		if u.Route == r {
			out = append(out, u.Unit)
		}
	}
	slices.SortFunc(out, func(a, b engram.Unit) int { return int(a.Seq - b.Seq) })
	return out
}

// line renders one unit as it appears in the history, newline included;
// the text's own line breaks start indented continuation lines.
func (m *Memory) line(r engram.Role, s string) string {
	return memvars.Line(m.prefix(r), s)
}

func (m *Memory) prefix(r engram.Role) string {
	return memvars.Label(r, m.opts.humanPrefix, m.opts.aiPrefix)
}

// batch is the store ops one memory operation produces. m.mu must be held
// while it is filled and committed.
type batch struct {
	units map[*unit]struct{}
	terms map[string]int64 // increments
	ops   []store.Op
	core  bool // a unit entered core memory: the store enforces capacity
}

func (m *Memory) batch() *batch {
	return &batch{units: make(map[*unit]struct{}), terms: make(map[string]int64)}
}

func (b *batch) put(u *unit)   { b.units[u] = struct{}{} }
func (b *batch) term(t string) { b.terms[t]++ }

// commit turns b into ops on the writer and returns the group to wait on;
// nil when in memory. Each unit is written where it now is: stored, in the
// eviction log if only its history remains, nowhere if even that was
// dropped. m.mu must be held.
func (m *Memory) commit(b *batch) *group {
	if m.w == nil {
		clear(m.dirty)
		return nil
	}
	for u := range m.dirty {
		b.units[u] = struct{}{}
	}
	clear(m.dirty)
	ops := b.ops
	for u := range b.units {
		_, stored := m.byID[u.ID]
		_, buried := m.gone[u.ID]
		switch {
		case stored:
			ops = append(ops, store.Unlog(u.Seq), store.Put(u.toRecord(true)))
			// Another writer may have evicted it meanwhile: the put brings
			// it back, and the eviction below settles who stays.
			b.core = b.core || u.Route == RouteCore
		case buried:
			ops = append(ops, store.Delete(u.Seq), store.Log(u.toRecord(false)))
		default:
			ops = append(ops, store.Delete(u.Seq), store.Unlog(u.Seq))
		}
	}
	for t, n := range b.terms {
		ops = append(ops, store.Term(t, n))
	}
	if b.core {
		// Other writers of the namespace count too.
		ops = append(ops, store.Evict(m.opts.capacity))
	}
	m.saveState()
	if st, err := json.Marshal(m.st); err == nil {
		ops = append(ops, store.State(st))
	}
	return m.w.add(ops...)
}

func (m *Memory) saveState() {
	m.saveGate()
	m.st.Kinds = m.ratings.MarshalKinds()
	m.st.Novelty = [2]quantile{m.novelty.lo, m.novelty.hi}
	m.st.RPE = [2]quantile{m.rpe.lo, m.rpe.hi}
}

// wait returns once the ops of t are durable, or the [ErrStore] that
// failed them.
func (m *Memory) wait(ctx context.Context, t *group) error {
	if m.w == nil || t == nil {
		return nil
	}
	if err := m.w.wait(ctx, t); err != nil {
		return fmt.Errorf("dmem: commit: %w", err)
	}
	return nil
}

// load restores the memory from its store. The LSH tables, the eviction
// heap and the short-term buffer are rebuilt from the records.
func (m *Memory) load(ctx context.Context) error {
	s, ns := m.w.store, m.w.ns
	snap, err := s.Load(ctx, ns)
	if err != nil {
		return fmt.Errorf("dmem: load state: %w", err)
	}
	if len(snap.State) > 0 {
		if err := m.st.decode(snap.State); err != nil {
			return fmt.Errorf("dmem: load: the state record of namespace %s in %s is damaged: %v (dmem.Salvage keeps the units without it): %w", ns, storeFile(s), err, ErrCorrupt)
		}
	}
	m.novelty.lo, m.novelty.hi = m.st.Novelty[0], m.st.Novelty[1]
	m.rpe.lo, m.rpe.hi = m.st.RPE[0], m.st.RPE[1]
	if m.novelty.lo.P == 0 {
		m.novelty, m.rpe = noveltyGate(), rewardGate()
	}
	m.loadGate()
	// A damaged record costs what it held, never the memory.
	_ = m.ratings.UnmarshalKinds(m.st.Kinds)
	for t, n := range snap.Terms {
		m.df[t] = uint32(min(max(n, 0), math.MaxUint32))
	}
	recount := m.st.Lines != m.linesFingerprint()
	m.st.Lines = m.linesFingerprint()
	var core, short []*unit
	err = s.Scan(ctx, ns, false, func(r store.Record) error {
		u, err := fromRecord(r)
		if err != nil {
			return nil // a damaged record costs that record, never the memory
		}
		if recount {
			u.Tokens = m.opts.counter(m.line(u.Role, u.Text))
		}
		if len(u.Embedding) != 0 && m.st.Dim == 0 {
			m.st.Dim = len(u.Embedding)
		}
		if u.Route == RouteCore {
			core = append(core, u)
		} else {
			short = append(short, u)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("dmem: load units: %w", err)
	}
	if d := unitsDim(core, short); d != 0 && d != m.st.Dim {
		// A damaged dimension would drop every unit; the units say better.
		m.opts.logger.Warn("dmem: load: the state's embedding dimension is not the units'; keeping the units'", "namespace", ns.String(), "store", storeFile(s), "state", m.st.Dim, "units", d)
		m.st.Dim = d
	}
	if m.st.Dim > 0 {
		m.lsh = newLSH(m.st.Dim)
	}
	if n := len(core) + len(short); n > 0 {
		if odd := n - countDim(m.st.Dim, core, short); odd > 0 {
			m.opts.logger.Warn("dmem: load: skipping units of another embedding dimension", "namespace", ns.String(), "store", storeFile(s), "units", odd, "dim", m.st.Dim)
		}
	}
	for _, u := range core {
		if len(u.Embedding) != m.st.Dim {
			continue
		}
		m.resident(u, lexisOf(u.Text))
		m.heap = append(m.heap, u)
		u.heapIdx = len(m.heap) - 1
	}
	heap.Init(&m.heap)
	for _, u := range short {
		if len(u.Embedding) != m.st.Dim {
			continue
		}
		m.resident(u, lexisOf(u.Text))
		m.short = append(m.short, u)
	}
	err = s.Scan(ctx, ns, true, func(r store.Record) error {
		u, err := fromRecord(r)
		if err != nil {
			return nil
		}
		if recount {
			u.Tokens = m.opts.counter(m.line(u.Role, u.Text))
		}
		m.gone[u.ID] = u
		m.goneOrder = append(m.goneOrder, u.Seq)
		return nil
	})
	if err != nil {
		return fmt.Errorf("dmem: load histories: %w", err)
	}
	b := m.batch()
	if recount {
		// The fingerprint committed below says the stored counts are
		// current: they must be, or the next open trusts stale ones.
		for _, u := range m.byID {
			b.put(u)
		}
		for _, u := range m.gone {
			b.put(u)
		}
	}
	m.trimHistory(b)
	if len(m.short) > m.opts.shortTerm || m.heap.Len() > m.opts.capacity {
		for len(m.short) > m.opts.shortTerm {
			old := m.short[0]
			m.unplace(old)
			old.Route = RouteNowhere
			m.bury(old, b)
		}
		m.evictOverflow(b)
	}
	return m.wait(ctx, m.commit(b))
}

// normalised returns v scaled to unit length (a copy), refusing non-finite
// components. A zero vector stays zero: it is stored but never indexed.
func normalised(v []float32) ([]float32, error) {
	var s float64
	for _, x := range v {
		if !finite(float64(x)) {
			return nil, fmt.Errorf("non-finite component: %w", engram.ErrInvalidInput)
		}
		s += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if s == 0 {
		return out, nil
	}
	inv := 1 / math.Sqrt(s)
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out, nil
}

func zero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
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
	if b, ok := s.(*boltStore); ok {
		return b.path
	}
	if sv, ok := s.(fmt.Stringer); ok {
		return sv.String()
	}
	return fmt.Sprintf("%T", s)
}
