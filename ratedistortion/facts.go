package ratedistortion

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/relevance"
)

// Facts that change (option.WithFacts): each saved unit's facts are read by the
// extractor and recorded in b.slots, the table of which units state which
// slot. A load passes a superseded unit's relevance on to the unit that
// states its slot's newest value (facts.Supersede), before utility, so the
// two compete for the budget as the new statement would if the question
// had matched it.

// extractFacts fills the facts of es with the extractor's reading, outside
// b.mu, the turns of a save at once (facts.Read). A unit the extractor
// failed on (an error, a panic) is stored without facts: the failure is
// logged, counted in [Buffer.Stats] and passed to [option.WithErrorHandler]'s
// handler, and the save goes on. A ctx done meanwhile (the extractor still
// running at its deadline, say) fails the save: what the caller gave up on
// is not stored. dmem answers both the same way.
func (b *Buffer) extractFacts(ctx context.Context, es []*entry) error {
	ex := b.opts.Facts
	if ex == nil {
		return nil
	}
	b.mu.Lock()
	known := b.slots.Known(engram.MaxKnownFacts)
	b.mu.Unlock()
	us := make([]engram.Unit, len(es))
	read := make([]bool, len(es))
	for i, e := range es {
		us[i], read[i] = e.unit, e.unit.Facts == nil && e.unit.Role != engram.RoleSystem
	}
	fs, errs := facts.Read(ctx, ex, us, read, known)
	for i, e := range es {
		switch {
		case !read[i]:
		case errs[i] != nil && ctx.Err() != nil: // the save fails below
		case errs[i] != nil:
			b.opts.Logger.Warn("ratedistortion: fact extractor failed; the unit is stored without facts",
				"error", errs[i], "role", e.unit.Role.String())
		default:
			e.unit.Facts, e.factsRead = fs[i], true
		}
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ratedistortion: facts: %w", err)
	}
	return nil
}

// indexTerms returns the words the lexical index holds for e (facts.Words):
// its text's and its facts' slots', which find the newest statement even
// when no older one is there to pass it relevance. Redundancy (redundancyEdges)
// still compares the texts alone, or two statements of one slot would
// repeat each other.
func (b *Buffer) indexTerms(e *entry) []string {
	if len(e.unit.Facts) == 0 {
		return b.termsOf(e)
	}
	if e.factTerms == nil {
		e.factTerms = facts.Words(b.termsOf(e), e.unit.Facts)
	}
	return e.factTerms
}

// embedSlots embeds the words of the slots es state that have no vector
// yet ("Omar home city"), for a load to compare with its query. A failure
// is logged: those slots are then found only through their statements.
func (b *Buffer) embedSlots(ctx context.Context, es []*entry) {
	b.mu.Lock()
	var keys, texts []string
	for _, e := range es {
		for _, f := range e.unit.Facts {
			k := f.Key()
			if _, ok := b.slotVec[k]; ok || slices.Contains(keys, k) {
				continue
			}
			keys, texts = append(keys, k), append(texts, facts.SlotWords(f))
		}
	}
	b.mu.Unlock()
	if len(keys) == 0 {
		return
	}
	vs := b.opts.EmbedSlots(ctx, texts)
	if vs == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.slotVec == nil {
		b.slotVec = make(map[string][]float32)
	}
	for i, k := range keys {
		if finite(vs[i]) == nil { // a slot without a usable vector is found through its statements
			b.slotVec[k] = embed.Normalized(vs[i])
		}
	}
}

// supersede passes relevance from superseded units to the units that state
// their slots' newest values, in rel (the pool's scores, then the guests'),
// after giving those units what the query's likeness to their slots' words
// is worth (facts.SlotShare; the most like slot, if like enough, the best
// match's relevance), and returns, by superseded entry, the ID of the unit that superseded it;
// nil when nothing is. A guest — recalled from the long-term tier, mostly
// older than the whole pool — is superseded by the pool's newest statement
// of a slot it states with another value, unless that was said before it,
// or else by a newer guest that does. b.mu is held.
func (b *Buffer) supersede(rel []float64, qvec []float32) map[*entry]string {
	if b.slots.Len() == 0 && !slices.ContainsFunc(b.guests, func(e *entry) bool { return len(e.unit.Facts) > 0 }) {
		return nil // no facts: a load without an extractor pays nothing
	}
	at := make(map[int64]int) // pool unit by Seq, for those that state facts
	for i, e := range b.pool {
		if len(e.unit.Facts) > 0 {
			at[e.unit.Seq] = i
		}
	}
	if qvec != nil && len(b.slotVec) > 0 {
		var asked []facts.Asked
		b.slots.Current(func(key string, seq int64) {
			v, ok := b.slotVec[key]
			j, in := at[seq]
			if ok && in {
				asked = append(asked, facts.Asked{Unit: j, Cosine: relevance.Dot(qvec, v)})
			}
		})
		facts.Ask(rel, asked)
	}
	// Who supersedes whom: in the pool, by Seq (b.slots); with guests that
	// state facts, in one table of pool and guests ordered by when each
	// was said, so that a guest newer than a pinned pool statement (the cap
	// hands the newer down and keeps the pinned one) supersedes it, and
	// not the other way round.
	table, place, unitAt := &b.slots, func(d int) int64 { return b.entryAt(d).unit.Seq }, at
	if joint, rank, byRank := b.jointSlots(); joint != nil {
		table, place, unitAt = joint, func(d int) int64 { return rank[d] }, byRank
	}
	if table.Len() == 0 {
		return nil
	}
	var stale map[*entry]string
	facts.Supersede(rel, func(d int) (int, bool) {
		e := b.entryAt(d)
		if len(e.unit.Facts) == 0 {
			return 0, false
		}
		by, ok := table.SupersededBy(place(d), e.unit.Facts)
		j, in := unitAt[by]
		if !ok || !in {
			return 0, false
		}
		if stale == nil {
			stale = make(map[*entry]string)
		}
		stale[e] = b.entryAt(j).unit.ID
		return j, true
	})
	return stale
}

// jointSlots returns, when some guest states facts, the slot table of the
// pool's and the guests' statements, each placed by its rank in the order
// they were said (Time; at equal times a guest before the pool, which is
// newer; then Seq), with each unit's rank by its number in rel and the
// unit of each rank; nil when no guest states a fact. b.mu is held.
func (b *Buffer) jointSlots() (*facts.Slots, map[int]int64, map[int64]int) {
	var ds []int // units of rel that state facts
	for i, e := range b.guests {
		if len(e.unit.Facts) > 0 {
			ds = append(ds, len(b.pool)+i)
		}
	}
	if len(ds) == 0 {
		return nil, nil, nil
	}
	for i, e := range b.pool {
		if len(e.unit.Facts) > 0 {
			ds = append(ds, i)
		}
	}
	slices.SortFunc(ds, func(x, y int) int {
		a, c := b.entryAt(x), b.entryAt(y)
		if t := a.unit.Time.Compare(c.unit.Time); t != 0 {
			return t
		}
		if ga, gc := a.origin != "", c.origin != ""; ga != gc {
			if ga {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.unit.Seq, c.unit.Seq)
	})
	joint := new(facts.Slots)
	rank, byRank := make(map[int]int64, len(ds)), make(map[int64]int, len(ds))
	for r, d := range ds {
		rank[d], byRank[int64(r)] = int64(r), d
		joint.Add(int64(r), b.entryAt(d).unit.Facts)
	}
	return joint, rank, byRank
}
