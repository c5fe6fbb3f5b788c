package ratedistortion

import (
	"context"
	"fmt"
	"slices"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/relevance"
)

// Facts that change (WithFacts): each saved unit's facts are read by the
// extractor and recorded in b.slots, the table of which units state which
// slot. A load passes a superseded unit's relevance on to the unit that
// states its slot's newest value (facts.Supersede), before utility, so the
// two compete for the budget as the new statement would if the question
// had matched it.

// extractFacts fills the facts of es with the extractor's reading, outside
// b.mu. Extraction never fails a save: an error or a panic is logged and
// the unit keeps no facts. A unit that already has facts keeps them.
func (b *Buffer) extractFacts(ctx context.Context, es []*entry) {
	ex := b.opts.facts
	if ex == nil {
		return
	}
	b.mu.Lock()
	known := b.slots.Known(engram.MaxKnownFacts)
	b.mu.Unlock()
	for _, e := range es {
		if e.unit.Facts != nil || e.unit.Role == engram.RoleSystem {
			continue
		}
		fs, err := callExtractor(ctx, ex, e.unit, known)
		if err != nil {
			b.opts.logger.Warn("ratedistortion: fact extractor failed; the unit is stored without facts",
				"error", err, "role", e.unit.Role.String())
			continue
		}
		e.unit.Facts, e.factsRead = facts.Clean(fs), true
	}
}

// indexTerms returns the words the lexical index holds for e (facts.Words):
// its text's and its facts' slots', which find the newest statement even
// when no older one is there to pass it relevance. Redundancy (wordSet)
// still compares the texts alone, or two statements of one slot would
// repeat each other.
func (e *entry) indexTerms() []string {
	if len(e.unit.Facts) == 0 {
		return e.terms
	}
	if e.factTerms == nil {
		e.factTerms = facts.Words(e.terms, e.unit.Facts)
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
			keys, texts = append(keys, k), append(texts, f.Subject+" "+f.Relation)
		}
	}
	b.mu.Unlock()
	if len(keys) == 0 {
		return
	}
	vs, err := b.opts.embedder.EmbedDocuments(ctx, texts)
	if err == nil && len(vs) != len(keys) {
		err = fmt.Errorf("embedder returned %d vectors for %d texts", len(vs), len(keys))
	}
	if err != nil {
		b.opts.logger.Warn("ratedistortion: fact slots not embedded; a load finds them through their statements alone", "error", err)
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.slotVec == nil {
		b.slotVec = make(map[string][]float32)
	}
	for i, k := range keys {
		b.slotVec[k] = embed.Normalized(vs[i])
	}
}

// callExtractor calls ex on u, turning a panic into an error.
func callExtractor(ctx context.Context, ex engram.FactExtractor, u engram.Unit, known []engram.Fact) (fs []engram.Fact, err error) {
	defer func() {
		if r := recover(); r != nil {
			fs, err = nil, fmt.Errorf("fact extractor panicked: %v", r)
		}
	}()
	u.Embedding = nil // the extractor reads text; the vector is the pool's
	// A copy: the next unit of the save is told known too.
	return ex(ctx, u, slices.Clone(known))
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
	var gslots facts.Slots // the guests', by their Seq in the long-term tier
	gat := make(map[int64]int)
	for i, e := range b.guests {
		if len(e.unit.Facts) > 0 {
			gslots.Add(e.unit.Seq, e.unit.Facts)
			gat[e.unit.Seq] = len(b.pool) + i
		}
	}
	if b.slots.Len() == 0 && gslots.Len() == 0 {
		return nil
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
	var stale map[*entry]string
	facts.Supersede(rel, func(d int) (int, bool) {
		e := b.entryAt(d)
		if len(e.unit.Facts) == 0 {
			return 0, false
		}
		seq := e.unit.Seq
		if e.origin != "" {
			seq = -1 // older than every pool unit
		}
		by, ok := b.slots.SupersededBy(seq, e.unit.Facts)
		j, in := at[by]
		if !ok || !in || e.origin != "" && b.pool[j].unit.Time.Before(e.unit.Time) {
			// A guest said after the pool's statement (the cap handed it
			// down and kept a pinned older one) is not out of date by it,
			// but may be by a newer guest.
			if e.origin == "" {
				return 0, false
			}
			if by, ok = gslots.SupersededBy(e.unit.Seq, e.unit.Facts); !ok {
				return 0, false
			}
			j = gat[by]
		}
		if stale == nil {
			stale = make(map[*entry]string)
		}
		stale[e] = b.entryAt(j).unit.ID
		return j, true
	})
	return stale
}
