package dmem

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/relevance"
)

// readFacts has the memory's fact extractor ([option.WithFacts]) read each draft
// that carries no facts (facts.Read: the turns at once, each turn in
// order). It runs outside m.mu: an extractor may be a model a round trip
// away. A draft of no time is stamped now, so that the extractor sees the
// time the unit keeps. The extractor's failure on a draft (an error, a
// panic) costs the draft its facts, never the save: it is logged, counted
// and passed to the error handler. A ctx done meanwhile (the extractor
// still running at its deadline, say) fails the save: what the caller
// gave up on is not stored. ratedistortion answers both the same way.
func (m *Memory) readFacts(ctx context.Context, ds []draft) error {
	ex := m.opts.Facts
	if ex == nil {
		return nil
	}
	m.mu.RLock()
	known, closed := m.slots.Known(engram.MaxKnownFacts), m.closed
	m.mu.RUnlock()
	if closed {
		return nil // the save fails as it takes the lock, unread
	}
	var now time.Time
	us := make([]engram.Unit, len(ds))
	read := make([]bool, len(ds))
	for i := range ds {
		d := &ds[i]
		if read[i] = d.fs == nil; read[i] && d.at.IsZero() {
			if now.IsZero() {
				now = m.opts.Now()
			}
			d.at = now
		}
		us[i] = engram.Unit{Role: d.role, Text: d.text, Time: d.at, Tokens: d.tokens, Flags: d.flags, Facts: d.fs}
	}
	fs, errs := facts.Read(ctx, ex, us, read, known)
	for i := range ds {
		if !read[i] {
			continue
		}
		if errs[i] != nil {
			if ctx.Err() != nil {
				continue // the save fails below
			}
			m.opts.Logger.Warn("dmem: the fact extractor failed; the unit is stored without facts",
				"namespace", m.opts.ns.String(), "error", errs[i])
			continue
		}
		ds[i].fs = fs[i]
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("dmem: facts: %w", err)
	}
	return nil
}

// slotVectors embeds the words of each slot the memory knows that has no
// vector yet ("Omar home city"), for a load to compare with its query
// (facts.Ask). It runs outside m.mu; the embedder may be a round trip
// away, and is asked only for slots new since the last load. A failure is
// logged: those slots are then found through their statements alone.
func (m *Memory) slotVectors(ctx context.Context) {
	m.mu.RLock()
	var keys, texts []string
	if !m.closed {
		m.slots.Current(func(key string, seq int64) {
			if _, ok := m.slotVec[key]; ok {
				return
			}
			if u := m.byID[idOf(seq)]; u != nil {
				if i := slices.IndexFunc(u.Facts, func(f engram.Fact) bool { return f.Key() == key }); i >= 0 {
					keys, texts = append(keys, key), append(texts, facts.SlotWords(u.Facts[i]))
				}
			}
		})
	}
	m.mu.RUnlock()
	if len(keys) == 0 {
		return
	}
	vs := m.opts.EmbedSlots(ctx, texts, "namespace", m.opts.ns.String())
	if vs == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.slotVec == nil {
		m.slotVec = make(map[string][]float32, len(keys))
	}
	for i, k := range keys {
		m.slotVec[k] = embed.Normalized(m.words.cut(vs[i]))
	}
}

// slotLike is a slot's newest statement and the query's cosine with the
// slot's words.
type slotLike struct {
	u *unit
	c float64
}

// likeSlots adds to the candidates (with add) the unit stating the newest
// value of each slot whose words the query (qv, as relevance compares it)
// is like, and returns them; ask then gives them their relevance. m.mu is
// held.
func (m *Memory) likeSlots(qv []float32, add func(*unit, float64), relOf func(*unit) float64) []slotLike {
	if len(m.slotVec) == 0 {
		return nil
	}
	var likes []slotLike
	m.slots.Current(func(key string, seq int64) {
		v, ok := m.slotVec[key]
		u := m.byID[idOf(seq)]
		if !ok || u == nil {
			return
		}
		// Below the floor a slot moves nothing (facts.SlotShare).
		if c := relevance.Dot(qv, v); c >= facts.SlotFloor {
			likes = append(likes, slotLike{u, c})
			add(u, relOf(u))
		}
	})
	return likes
}

// ask gives the candidates likeSlots found their share of the best
// relevance in rel (facts.Ask), and reports it in their rel.
func ask(cs []cand, rel []float64, likes []slotLike) {
	if len(likes) == 0 {
		return
	}
	at := make(map[*unit]int, len(likes))
	for _, l := range likes {
		at[l.u] = -1
	}
	for i, c := range cs {
		if _, ok := at[c.u]; ok && c.u != nil {
			at[c.u] = i
		}
	}
	asked := make([]facts.Asked, 0, len(likes))
	for _, l := range likes {
		if i := at[l.u]; i >= 0 {
			asked = append(asked, facts.Asked{Unit: i, Cosine: l.c})
		}
	}
	facts.Ask(rel, asked)
	for i := range cs {
		cs[i].rel = rel[i]
	}
}

// successor returns the resident unit that supersedes unit seq, which
// states fs: the newest to give one of its slots another value; nil if
// none. For seq −1 it is the unit a new step stating fs overturns. m.mu
// must be held.
func (m *Memory) successor(seq int64, fs []engram.Fact) *unit {
	n, ok := m.slots.SupersededBy(seq, fs)
	if !ok {
		return nil
	}
	return m.byID[idOf(n)]
}

// supersede passes the score and relevance of each superseded candidate to
// the one that supersedes it (facts.Supersede): the successor gets at
// least what the candidate had, the candidate keeps facts.StaleShare.
func supersede(cs []cand) {
	if !slices.ContainsFunc(cs, func(c cand) bool { return c.newer != "" }) {
		return
	}
	at := make(map[string]int)
	for _, c := range cs {
		if c.newer != "" {
			at[c.newer] = -1
		}
	}
	for i, c := range cs {
		if _, ok := at[c.id]; ok {
			at[c.id] = i
		}
	}
	by := func(i int) (int, bool) {
		j, ok := at[cs[i].newer]
		return j, ok && j >= 0
	}
	scores, rels := make([]float64, len(cs)), make([]float64, len(cs))
	for i, c := range cs {
		scores[i], rels[i] = c.score, c.rel
	}
	facts.Supersede(scores, by)
	facts.Supersede(rels, by)
	for i := range cs {
		cs[i].score, cs[i].rel = scores[i], rels[i]
	}
}
