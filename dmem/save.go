package dmem

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/internal/groupcommit"
	"github.com/engram-go/engram/dmem/internal/value"
	"github.com/engram-go/engram/dmem/internal/vecindex"
	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/memvars"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/internal/text"
)

// SaveContext records the human message from inputs and the AI reply from
// outputs as two steps of one turn (one [engram.Unit.Group]), each routed
// and, at a load with a query, selected on its own. Keys are chosen as [option.WithInputKey]
// and [option.WithOutputKey] say; values must be strings. An empty message is
// skipped; both empty, a missing key or a non-string value give an error
// wrapping [engram.ErrInvalidInput], and nothing is recorded. Invalid UTF-8
// is stored with U+FFFD in place of bad bytes, and trailing white space is
// dropped (it would merge with the line break and spoil the exact count).
func (m *Memory) SaveContext(ctx context.Context, inputs, outputs map[string]any) error {
	in, out, err := m.opts.Exchange(ctx, inputs, outputs)
	if err != nil {
		return err
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

// draft is a step prepared outside the lock.
type draft struct {
	role   engram.Role
	kind   engram.StepKind
	text   string
	at     time.Time
	reward float64 // attached as the step is taken, under the same lock
	meta   []byte
	force  bool // an explicit add: core memory, whatever the gate says
	chat   bool // part of the transcript: mirrored to option.WithChatHistory's history
	handed bool // handed down by a working context (Demote): not a new turn

	vec     []float32
	tokens  int
	flags   engram.Flags
	keys    []string        // terms and neighbouring pairs, for novelty
	salient map[string]bool // terms that are numbers or names
	lex     lexis           // what the words index keeps of the text
	fs      []engram.Fact   // the facts it states: carried in, or read by option.WithFacts
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
	vecs, err := m.opts.Embedder.EmbedDocuments(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("dmem: embed: %w", err)
	}
	if len(vecs) != len(ds) {
		return nil, fmt.Errorf("dmem: embedder returned %d vectors for %d texts: %w", len(vecs), len(ds), engram.ErrInvalidInput)
	}
	for i := range ds {
		d := &ds[i]
		if d.vec, err = vecindex.Normalised(vecs[i]); err != nil {
			return nil, fmt.Errorf("dmem: embed %q: %w", short(d.text), err)
		}
		if i > 0 && len(d.vec) != len(ds[0].vec) {
			return nil, fmt.Errorf("dmem: embedder returned vectors of %d and %d dimensions: %w", len(ds[0].vec), len(d.vec), engram.ErrInvalidInput)
		}
		d.tokens = m.opts.Counter(m.line(d.role, d.text))
		ws := text.Split(texts[i]) // once, for every analysis below
		d.flags = text.FlagsIn(texts[i], ws)
		terms := text.TermsIn(ws)
		d.keys = keys(terms)
		d.salient = salientTerms(ws)
		d.lex = lexis{terms: terms, names: relevance.NamesIn(ws)}
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
	now := m.opts.Now()
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

// fits refuses a text longer than [option.WithMaxMessageBytes] allows.
func (m *Memory) fits(s string) error {
	if n := len(s); m.opts.MaxBytes > 0 && n > m.opts.MaxBytes {
		return fmt.Errorf("%d bytes, more than %d: %w", n, m.opts.MaxBytes, engram.ErrTooLarge)
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
		m.lsh = m.newLSH(m.st.Dim)
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
			if ctx.Err() == nil && groupcommit.Transient(err) {
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
		Kind: d.kind, heapIdx: -1, slot: -1, facts: facts.Turn(text.Excerpt(d.text), d.role.String()),
	}
	if d.meta != nil {
		m.meta[seq] = d.meta
	}
	var nearest *unit
	var sim float64
	nearest, sim, m.probed = m.lsh.Nearest(d.vec, m.opts.Redundancy, m.probed[:0])
	c := max(sim, m.seen.best(d.vec))
	u.Novelty = lexicalNovelty(d.keys, d.salient, d.flags, m.df) * (1 - math.Pow(c, 6))
	f := value.Of(u.Role, u.Kind, u.Flags, u.Tokens, u.Novelty, d.vec)
	call := m.callOf(u)
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
	// A tool call is never a repeat: folded into the question that asked
	// for it, or into the same call made before, it would leave the result
	// that answers it without it.
	old := m.successor(-1, d.fs)
	if old == nil && (!d.force || d.handed) && d.role != engram.RoleToolCall {
		dup = m.duplicate(d.text, d.lex, nearest, sim, m.probed)
		if d.force && dup != nil && (dup.Role != d.role || !sameSquashed(dup.Text, d.text)) {
			// A unit handed down as needed keeps its own place, unless
			// the memory holds it already, word for word: a working
			// context that hands the same line down twice gets one unit.
			dup = nil
		}
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
		if call != nil && r != RouteNowhere {
			m.keepCall(call, r, p, b)
		}
	}

	for _, t := range d.keys {
		m.df[termKey(t)]++
		if m.w != nil { // the store keeps the counts; in memory they are df's alone
			b.terms[t]++
		}
	}
	m.seen.add(d.vec)
	m.pending = &pendingStep{feat: f, u: home}
	return u.ID
}

// pendingCall is the tool call that u, a tool result, answers, with its
// vector (nil while it is resident), when that call is the step just
// before it; nil otherwise. m.mu must be held.
type pendingCall struct {
	u   *unit
	vec []float32
}

func (m *Memory) callOf(u *unit) *pendingCall {
	p := m.pending
	if u.Role != engram.RoleToolResult || p == nil || p.u.Role != engram.RoleToolCall || p.u.Group != u.Group ||
		p.u.Route == RouteNowhere && p.u.Embedding == nil {
		return nil
	}
	return &pendingCall{u: p.u, vec: p.u.Embedding}
}

// keepCall places the tool call c at least where its result went (route
// r, priority p): a result is shown with the call it answers or not at
// all, and a call's words alone ("weather(Lyon)" after "weather in
// Lyon?") seldom look new enough to be kept, or kept as long. m.mu must
// be held.
func (m *Memory) keepCall(c *pendingCall, r Route, p float64, b *batch) {
	u := c.u
	switch {
	case u.Route >= r || u.Route == RouteMerged:
		return
	case u.Route == RouteShort:
		m.unplace(u)
	default:
		u.Embedding = c.vec
		m.unbury(u, b)
	}
	m.place(u, r, p, EventPromoted, lexisOf(u.Text), b)
}

// complete closes the pending step's transition to a step with features
// next: one TD(0) update; once rewards exist, an unrewarded step whose δ
// turns out surprising is promoted too. m.mu must be held.
func (m *Memory) complete(next *value.Features, b *batch) {
	p := m.pending
	if p == nil {
		return
	}
	m.pending = nil
	delta := m.st.Value.Learn(&p.feat, next, p.reward, m.opts.discount)
	if next != nil {
		m.st.MeanValue += 0.05 * (m.st.Value.Trailing(next) - m.st.MeanValue)
	}
	if m.st.Rewards > 0 && !p.rewarded {
		m.judge(p.u, delta, EventDecided, b)
	}
	if p.u.Route == RouteNowhere && p.u.Embedding != nil {
		p.u.Embedding = nil // no reward can resurrect it now
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

// sameSquashed reports whether a and b are the same text once each run of
// white space is one space.
func sameSquashed(a, b string) bool {
	return strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
}
