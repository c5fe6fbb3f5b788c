package ratedistortion

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/ann"
	"github.com/engram-go/engram/internal/credit"
	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/guard"
	"github.com/engram-go/engram/internal/memopts"
	"github.com/engram-go/engram/internal/memvars"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/internal/text"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

// Buffer is a conversation memory that, at every load, returns the messages
// whose loss would cost most within a token budget. See the package doc.
type Buffer struct {
	opts         options
	headerTokens int // cost of the summary's header line

	// hist orders the chat history's writes as the pool's (history.go);
	// a save waiting for it gives up at its deadline. Taken before mu.
	hist guard.Mutex

	mu             sync.Mutex // guards everything below
	pool           []*entry   // chronological; position = lexical document id
	index          *relevance.Index
	seq            int64             // next unit's Seq
	group          int64             // next group id
	openHuman      int64             // group of a human turn awaiting its reply, or -1
	toolGroup      map[string]int64  // tool-call id → group of the call
	byID           map[string]*entry // every unit in the pool
	termID         map[string]int32  // stemmed word → its number (entry.termIDs)
	termName       []string          // number → stemmed word
	dropped        int               // units removed by the pool cap
	last           *selection        // the last load, explained on demand
	spare          *selection        // the load before it, whose arrays the next load reuses
	gatherIn       []bool            // gather's marks, all false between loads
	gatherDone     []bool            // the units gather expanded, all false between loads
	gatherMarked   []int             // gather's lists of what it marked and expanded, kept for the next load
	gatherExpanded []int
	gatherScratch  relevance.TopScratch // the arrays gather ranks relevance in
	near           *ann.Index           // the pool's vectors by Seq, past relevance.GatherAbove units (near.go)
	nearFrom       int64                // the first Seq near has not been offered
	nearAbove      int                  // if not 0, the pool's relevance.GatherAbove: a test's
	pinned         map[*entry]struct{}  // the pool's pinned units (noteFlags)
	seqs           []int64              // the pool's Seqs, in order, while as long as the pool (positionOf)
	directives     []int64              // the Seqs of the pool's directives, in order (noteFlags)
	gathered       relevance.Gathered   // the load's relevance when it gathered, given back after selection
	scratch        relevance.Scratch    // the arrays a load's relevance is formed in
	recencies      []float64            // recency by age (recencyTable); set by New, read-only
	summary        summaryCache
	cleared        int64                // times the pool was cleared: a load that spans one is not recorded
	guests         []*entry             // what the long-term tier recalled for the latest load, by its Seq there
	gindex         *relevance.Index     // the guests' words, by position in guests
	guestAt        map[int64]int        // the guests by their Seq in the long-term tier, for their neighbours
	recalled       map[string]*entry    // units recalled from the long-term tier, cached prepared, by origin
	loads          int64                // loads so far, for the cache's last use
	demoted        []engram.Demoted     // let go by the cap, not yet handed to the long-term tier
	handing        bool                 // a hand-down of demoted's front is running (tier.go)
	mat            []float32            // the pool's dense embeddings in one matrix, row i = pool[i] (see matrix)
	matDim         int                  // their dimension: 0 before the first, −1 once one does not fit
	slots          facts.Slots          // which pool units state which fact slot (facts.go)
	slotVec        map[string][]float32 // each slot's words embedded, by key (embedSlots)
	credit         *credit.Ledger       // what ratings taught (Reward)
	said           map[uint64]*entry    // the latest human message of each text, by squashedHash (repeat.go)
	replies        map[uint64]said      // the replies of the pool that say each text, by squashedHash
}

var (
	_ schema.Memory     = (*Buffer)(nil)
	_ engram.RewardSink = (*Buffer)(nil)
)

// New returns an empty buffer. With no options it keeps at most 2000 tokens,
// counts them with cl100k_base and embeds offline.
func New(opts ...Option) (*Buffer, error) {
	o := defaults()
	if err := memopts.Build(&o, &o.Shared, opts, o.check); err != nil {
		return nil, err
	}
	b := &Buffer{opts: o, headerTokens: o.Counter(summaryHeader), recencies: recencyTable(o.HalfLife)}
	b.reset()
	return b, nil
}

func (b *Buffer) reset() {
	b.pool = nil
	b.index = relevance.NewIndex()
	b.openHuman = -1
	b.toolGroup = make(map[string]int64)
	b.byID = make(map[string]*entry)
	b.pinned, b.directives, b.seqs = make(map[*entry]struct{}), nil, nil
	b.termID, b.termName = make(map[string]int32), nil
	b.last, b.spare = nil, nil
	b.demoted = nil
	b.recalled, b.guestAt = make(map[string]*entry), make(map[int64]int)
	b.setGuests(nil)
	b.mat, b.matDim = nil, 0
	b.near, b.nearFrom = nil, 0
	b.summary = summaryCache{}
	b.slots.Clear()
	b.slotVec = nil
	b.credit = credit.New()
	b.said = make(map[uint64]*entry)
	b.replies = make(map[uint64]said)
	b.cleared++
}

// GetMemoryKey returns the key the history is returned under.
func (b *Buffer) GetMemoryKey(context.Context) string { return b.opts.MemoryKey }

// MemoryVariables returns the one key LoadMemoryVariables sets.
func (b *Buffer) MemoryVariables(context.Context) []string { return []string{b.opts.MemoryKey} }

// SaveContext stores the human message from inputs and the AI reply from
// outputs as two units of one turn (one [engram.Unit.Group]); a load
// selects each on its own, as on real dialogue keeping a turn with its
// reply cost recall. The keys are chosen as
// [option.WithInputKey] and [option.WithOutputKey] describe; values must be strings.
// On any error nothing is stored: a missing key, a nil map, a non-string
// value or two blank messages give an error wrapping
// [engram.ErrInvalidInput], as in dmem. One blank message is skipped;
// invalid UTF-8 is stored with U+FFFD in place of bad bytes, and trailing
// white space is dropped (it would merge with the line break and spoil
// the exact count).
func (b *Buffer) SaveContext(ctx context.Context, inputs, outputs map[string]any) error {
	in, out, err := b.opts.Exchange(ctx, inputs, outputs)
	if err != nil {
		return err
	}
	if strings.TrimSpace(in) == "" && strings.TrimSpace(out) == "" {
		return fmt.Errorf("ratedistortion: save: empty input and output: %w", engram.ErrInvalidInput)
	}
	var msgs []llms.ChatMessage
	if in != "" {
		msgs = append(msgs, llms.HumanChatMessage{Content: in})
	}
	if out != "" {
		msgs = append(msgs, llms.AIChatMessage{Content: out})
	}
	return b.AddMessages(ctx, msgs...)
}

// AddMessages stores chat messages in order. A human message and the AI
// reply after it share a turn, and a load selects each on its own; an AI
// message with tool calls and the tool results answering them (matched by
// tool-call id) form a group, kept or dropped as a whole. A human turn said again exactly
// (the same roles and texts, white space aside, as the latest turn with its
// message) is not stored twice: that turn moves to the end of the pool, as
// if said now, keeping its id and what it learned. On error nothing is
// stored.
func (b *Buffer) AddMessages(ctx context.Context, msgs ...llms.ChatMessage) error {
	if err := memvars.Context(ctx); err != nil {
		return fmt.Errorf("ratedistortion: add messages: %w", err)
	}
	ds, err := drafts(msgs)
	if err != nil {
		return fmt.Errorf("ratedistortion: add: %w", err)
	}
	return b.add(ctx, msgs, ds)
}

// add stores ds, the drafts of msgs, as AddMessages describes.
func (b *Buffer) add(ctx context.Context, msgs []llms.ChatMessage, ds []draft) error {
	for i, d := range ds {
		if n := len(d.text); b.opts.MaxBytes > 0 && n > b.opts.MaxBytes {
			return fmt.Errorf("ratedistortion: add: message %d has %d bytes, more than %d: %w", i+1, n, b.opts.MaxBytes, engram.ErrTooLarge)
		}
	}
	var keep []draft
	var shown []llms.ChatMessage // what the chat history receives
	for i, d := range ds {
		if d.text != "" {
			keep = append(keep, d)
			shown = append(shown, msgs[i])
		}
	}
	if len(keep) == 0 {
		return nil
	}
	es, err := b.prepare(ctx, keep)
	if err != nil {
		return err
	}
	if err := b.extractFacts(ctx, es); err != nil {
		return err
	}
	b.embedSlots(ctx, es)
	if b.opts.Chat != nil {
		if err := b.hist.Lock(ctx); err != nil {
			return fmt.Errorf("ratedistortion: add: %w", err)
		}
		if err := b.mirror(ctx, shown); err != nil {
			b.hist.Unlock()
			return err
		}
	}
	b.mu.Lock()
	if at := b.repeated(es); at != nil {
		es = b.moveToEnd(at, es) // an exact repeat is not stored twice (repeat.go)
	} else {
		for i, e := range es {
			b.place(e, keep[i])
			b.noteSaid(e)
		}
	}
	b.learnFromReferral(es)
	for _, e := range es {
		if e.unit.Role == engram.RoleHuman {
			b.credit.Saved()
		}
	}
	if b.opts.MaxUnits > 0 && len(b.pool) > b.opts.MaxUnits {
		b.enforceCap()
	}
	b.mu.Unlock()
	if b.opts.Chat != nil {
		b.hist.Unlock()
	}
	b.handDown(ctx)
	return nil
}

// observedCall is the tool-call id of the latest tool call given to
// Observe, which names none: no id a model gives starts with a NUL.
const observedCall = "\x00observed"

// place gives e its id, sequence number and group, and adds it to the pool.
func (b *Buffer) place(e *entry, d draft) {
	u := &e.unit
	u.Seq = b.seq
	u.ID = idOf(b.seq)
	b.seq++
	newGroup := func() int64 { b.group++; return b.group - 1 }
	switch d.role {
	case engram.RoleHuman:
		u.Group = newGroup()
		b.openHuman = u.Group
		delete(b.toolGroup, observedCall) // a turn ends what was observed
	case engram.RoleAI:
		if b.openHuman >= 0 {
			u.Group = b.openHuman
		} else {
			u.Group = newGroup()
		}
		b.openHuman = -1
		delete(b.toolGroup, observedCall)
	case engram.RoleToolCall:
		u.Group = newGroup()
		for _, id := range d.toolIDs {
			b.toolGroup[id] = u.Group
		}
		b.openHuman = -1
	case engram.RoleToolResult:
		g, ok := int64(0), false
		if len(d.toolIDs) > 0 {
			g, ok = b.toolGroup[d.toolIDs[0]]
		}
		if !ok {
			g = newGroup()
		}
		u.Group = g
		b.openHuman = -1
	default:
		u.Group = newGroup()
		b.openHuman = -1
	}
	b.number(e)
	b.slots.Add(u.Seq, u.Facts)
	if b.index != nil { // else it is rebuilt, this unit with the others, when next read
		b.index.Add(len(b.pool), text.Excerpt(u.Text), len(b.pool)-1, b.indexTerms(e))
	}
	b.pool = append(b.pool, e)
	if len(b.seqs) == len(b.pool)-1 {
		b.seqs = append(b.seqs, u.Seq)
	}
	b.byID[u.ID] = e
	b.noteFlags(e)
}

// noteFlags notes e, new to the pool or just pinned or unpinned, among
// the pinned units or the directives, which loads take as candidates
// (gather) without a pass over every unit. b.mu is held.
func (b *Buffer) noteFlags(e *entry) {
	if e.unit.Flags.Has(engram.FlagPinned) {
		b.pinned[e] = struct{}{}
	} else {
		delete(b.pinned, e)
	}
	if e.unit.Flags.Has(engram.FlagDirective) {
		if i, found := slices.BinarySearch(b.directives, e.unit.Seq); !found {
			b.directives = slices.Insert(b.directives, i, e.unit.Seq)
		}
	}
}

// forgetFlags takes e out of the pinned units and the directives, before
// it leaves the pool or takes a new Seq. b.mu is held.
func (b *Buffer) forgetFlags(e *entry) {
	delete(b.pinned, e)
	if i, found := slices.BinarySearch(b.directives, e.unit.Seq); found {
		b.directives = slices.Delete(b.directives, i, i+1)
	}
}

// number gives e's terms their numbers and keeps those, in order, instead
// of the words: each word a pool holds is stored once, not once a unit
// that says it. b.mu is held.
func (b *Buffer) number(e *entry) {
	if e.termIDs != nil || e.terms == nil {
		return
	}
	ids := make([]int32, len(e.terms))
	for i, t := range e.terms {
		id, ok := b.termID[t]
		if !ok {
			id = int32(len(b.termName))
			b.termID[t] = id
			b.termName = append(b.termName, t)
		}
		ids[i] = id
	}
	e.termIDs, e.terms = ids, nil
}

// termsOf returns e's stemmed content words, in order.
func (b *Buffer) termsOf(e *entry) []string {
	if e.termIDs == nil {
		return e.terms
	}
	out := make([]string, len(e.termIDs))
	for i, id := range e.termIDs {
		out[i] = b.termName[id]
	}
	return out
}

// Clear forgets every unit. With [option.WithChatHistory] it clears the history
// first, and if that fails returns its error and forgets nothing.
func (b *Buffer) Clear(ctx context.Context) error {
	if b.opts.Chat != nil {
		if err := memvars.Context(ctx); err != nil {
			return fmt.Errorf("ratedistortion: clear: %w", err)
		}
		if err := b.hist.Lock(ctx); err != nil {
			return fmt.Errorf("ratedistortion: clear: %w", err)
		}
		defer b.hist.Unlock()
		if err := b.opts.Chat.Clear(ctx); err != nil {
			return fmt.Errorf("ratedistortion: clear the chat history: %w", err)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reset()
	return nil
}

// Len returns the number of units in the pool.
func (b *Buffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.pool)
}

// Units returns a copy of every unit in the pool, oldest first.
func (b *Buffer) Units() []engram.Unit {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]engram.Unit, len(b.pool))
	for i, e := range b.pool {
		out[i] = e.unit
	}
	return out
}

// Stats counts what the buffer holds and what failed.
type Stats struct {
	// Units is how many units the pool holds.
	Units int
	// Queued is how many units the pool cap let go that wait for the
	// long-term tier ([WithLongTerm]) to take them.
	Queued int
	// Failures counts the failed calls into what was plugged into the
	// buffer (see [option.WithErrorHandler]).
	Failures engram.Failures
}

// Stats returns the buffer's counts.
func (b *Buffer) Stats() Stats {
	s := Stats{Failures: b.opts.Guards.Failures()} // counted apart from the pool, without its lock
	b.mu.Lock()
	s.Units, s.Queued = len(b.pool), len(b.demoted)
	b.mu.Unlock()
	return s
}

// Pin marks unit id (and so its pair or group) as always kept. A load fails
// with [engram.ErrBudgetTooSmall] if pinned units alone exceed the budget.
func (b *Buffer) Pin(id string) error { return b.setPinned(id, true) }

// Unpin undoes [Buffer.Pin].
func (b *Buffer) Unpin(id string) error { return b.setPinned(id, false) }

func (b *Buffer) setPinned(id string, on bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.byID[id]
	if !ok {
		return fmt.Errorf("ratedistortion: pin %q: %w", id, engram.ErrNotFound)
	}
	if on {
		e.unit.Flags |= engram.FlagPinned
	} else {
		e.unit.Flags &^= engram.FlagPinned
	}
	b.noteFlags(e)
	return nil
}

// Reward implements [engram.RewardSink]: r rates the answer given from the
// latest load, read on [−1, 1] (1: it had all it needed; −1: none of it;
// beyond is clamped). It may come right after the load or after the
// SaveContext of the rated exchange, as an agent executor does it; after a
// second save it is about no load and changes nothing, here or in a
// long-term tier.
//
// A rating is credited to what that load showed and to nothing else (see
// the package doc, "Learning from ratings"): asked again in the same
// words, an answer at least partly right is shown again and one rated
// wholly wrong (−1) makes room for others; and every unit shown gains or
// loses standing, the rating less the running mean, which moves its
// relevance for every later question. A learned gate ([option.WithGate]) learns
// from the units most likely to have answered. NaN and infinite ratings
// give [engram.ErrInvalidInput]. If the load showed units recalled from a
// long-term tier ([WithLongTerm]), r is passed on to the tier; an error of
// the tier's is returned after the buffer has taken the rating itself, so a
// caller must not rate again.
func (b *Buffer) Reward(ctx context.Context, r float64) error {
	if err := memvars.Context(ctx); err != nil {
		return fmt.Errorf("ratedistortion: reward: %w", err)
	}
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return fmt.Errorf("ratedistortion: reward %v: %w", r, engram.ErrInvalidInput)
	}
	b.mu.Lock()
	if b.last == nil {
		b.mu.Unlock()
		return nil
	}
	rated := b.credit.Pending()
	if rated {
		// Clamped as the ledger clamps it: a unit's sum of ratings must
		// stay finite, or Save writes what Restore refuses.
		c := max(-1, min(1, r))
		for i, u := range b.last.units {
			if b.last.kept[i] {
				u.e.reward += c
			}
		}
		adv, _ := b.credit.Rate(r)
		b.learnFromRating(adv)
	}
	down := rated && b.opts.longTerm != nil && b.showedLongTerm()
	b.mu.Unlock()
	if down {
		_, err := guard.Do(ctx, b.opts.Guards.LongTerm, "reward", func(ctx context.Context) (struct{}, error) {
			return struct{}{}, b.opts.longTerm.Reward(ctx, r)
		})
		if err != nil {
			return fmt.Errorf("ratedistortion: reward: %w", err)
		}
	}
	return nil
}

// Observe stores a step that did not come through SaveContext — a tool
// result or error, a failed chain — rendered as dmem renders it: a tool's
// step is a tool line, "tool: weather(Lyon) → 14C", any other a system
// line naming its kind, "system: chain_error: …". A non-zero reward
// rates the latest load as [Buffer.Reward] does, if the step follows one
// (a test run on code written from what the load showed): every reward
// source takes the one path.
// Blank text or a non-finite reward give an error wrapping
// [engram.ErrInvalidInput], as in dmem.
func (b *Buffer) Observe(ctx context.Context, s engram.Step) error {
	if math.IsNaN(s.Reward) || math.IsInf(s.Reward, 0) {
		return fmt.Errorf("ratedistortion: observe reward %v: %w", s.Reward, engram.ErrInvalidInput)
	}
	if strings.TrimSpace(s.Text) == "" {
		return fmt.Errorf("ratedistortion: observe: empty text: %w", engram.ErrInvalidInput)
	}
	if err := memvars.Context(ctx); err != nil {
		return fmt.Errorf("ratedistortion: observe: %w", err)
	}
	role, text := memvars.Step(s)
	msgs := []llms.ChatMessage{memvars.Message(role, text, "")}
	ds, err := drafts(msgs)
	if err != nil {
		return fmt.Errorf("ratedistortion: observe: %w", err)
	}
	// A tool call observed names no call id: it is filed under
	// observedCall, and the results observed after it answer it, so that
	// a load keeps or drops them together.
	switch role {
	case engram.RoleToolCall:
		ds[0].role, ds[0].toolIDs = engram.RoleToolCall, []string{observedCall}
	case engram.RoleToolResult:
		ds[0].toolIDs = []string{observedCall}
	}
	if err := b.add(ctx, msgs, ds); err != nil {
		return err
	}
	if s.Reward != 0 {
		return b.Reward(ctx, s.Reward)
	}
	return nil
}
