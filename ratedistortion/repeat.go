package ratedistortion

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engram-go/engram"
)

// An exact repeat is a turn said again: a human message, alone or with
// its reply, whose every unit has the role and the text (white space
// squashed) of the pool's latest turn that starts with that message. It
// is not stored a second time, where copies would fill the budget ("My
// team meets on Mondays." kept nine times): the turn it repeats moves to
// the end of the pool, as if said now, with a new sequence number and the
// new time, and keeps its id, its pins and what loads and rewards taught
// of it. Its facts count from its new place, so a statement said again
// is the newest value of its slots. Anything else — a reply alone, a tool
// call or its result, a turn whose reply differs — is stored as usual.

// repeated returns the pool positions of the turn es repeats exactly, in
// order; nil if es is not a human turn or repeats none. b.mu is held.
func (b *Buffer) repeated(es []*entry) []int {
	if len(es) == 0 || len(es) > 2 || es[0].unit.Role != engram.RoleHuman ||
		len(es) == 2 && es[1].unit.Role != engram.RoleAI {
		return nil
	}
	e := b.said[squashedHash(es[0].unit.Text)]
	if e == nil || b.byID[e.unit.ID] != e || !sameSquashed(e.unit.Text, es[0].unit.Text) {
		return nil
	}
	i, found := b.position(e)
	if !found {
		return nil
	}
	// A human message opens its turn; its reply, if any, follows it.
	at := []int{i}
	if j := i + 1; j < len(b.pool) && b.pool[j].unit.Group == e.unit.Group {
		at = append(at, j)
	}
	if len(at) != len(es) || len(es) == 2 && (b.pool[at[1]].unit.Role != engram.RoleAI ||
		!sameSquashed(b.pool[at[1]].unit.Text, es[1].unit.Text)) {
		return nil // the latest turn with this message went otherwise
	}
	return at
}

// noteSaid remembers e, just placed, as the latest human message with its
// text, so that repeated finds it without scanning the pool, or counts it
// among the replies that say its text. b.mu is held.
func (b *Buffer) noteSaid(e *entry) {
	switch e.unit.Role {
	case engram.RoleHuman:
		b.said[squashedHash(e.unit.Text)] = e
	case engram.RoleAI:
		e.says = squashedHash(e.unit.Text)
		r := b.replies[e.says]
		if r.n++; r.n == 1 {
			r.first = e
		} else {
			e.formulaic = true
			if r.first != nil {
				r.first.formulaic = true
			}
		}
		b.replies[e.says] = r
	}
}

// said counts the replies of the pool that say one text; first is the
// earliest still held, if it is.
type said struct {
	n     int
	first *entry
}

// A reply is formulaic when another reply said it word for word: "ok",
// "Noted.", a stock answer. It carries nothing of its own, and a load
// values it for its relevance alone, when that is most of its worth,
// without the recency, flags and floor that keep other units: 200 turns answered "ok" at a budget of 200 kept
// 17 of the replies, most without their question, to fill the budget.
// Replies that say something of their own keep their recency: on real
// dialogue, where both speakers' turns carry content, taking it from
// every reply whose question was left out lost 0.004–0.010 of recall
// asked in-stream. A reply is formulaic while another reply of the pool
// says its text, and a restored buffer knows it as the saved one did.

// formulaic reports whether e is a formulaic reply now. Its flag, set
// once another reply said its text, spares most replies the count's
// lookup at every load. b.mu is held.
func (b *Buffer) formulaic(e *entry) bool {
	return e.formulaic && b.replies[e.says].n > 1
}

// forgetSaid drops e, leaving the pool, from what noteSaid remembers.
// b.mu is held.
func (b *Buffer) forgetSaid(e *entry) {
	h := squashedHash(e.unit.Text)
	if b.said[h] == e {
		delete(b.said, h)
	}
	if r, ok := b.replies[e.says]; ok && e.unit.Role == engram.RoleAI {
		if r.n--; r.n <= 0 {
			delete(b.replies, e.says)
			return
		}
		if r.first == e {
			r.first = nil
		}
		b.replies[e.says] = r
	}
}

// squashedHash is FNV-1a of s with each run of white space one space and
// leading and trailing white space dropped: texts sameSquashed calls equal
// hash alike.
func squashedHash(s string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	space := false
	for _, r := range strings.TrimSpace(s) {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			h = (h ^ ' ') * prime
			space = false
		}
		for ; r > 0; r >>= 8 {
			h = (h ^ uint64(r&0xff)) * prime
		}
	}
	return h
}

// moveToEnd moves the units at positions at (consecutive, one turn) to the
// end of the pool, as if said now, at the times of the fresh entries that
// repeat them, and returns them. b.mu is held.
func (b *Buffer) moveToEnd(at []int, fresh []*entry) []*entry {
	first, end := at[0], at[len(at)-1]+1
	moved := slices.Clone(b.pool[first:end])
	b.pool = append(slices.Delete(b.pool, first, end), moved...)
	b.seqs = b.seqs[:0] // rebuilt when next searched (positionOf)
	for k, e := range moved {
		b.slots.Remove(e.unit.Seq, e.unit.Facts)
		b.unindex(e) // indexed again under its new Seq
		b.forgetFlags(e)
		e.unit.Seq = b.seq
		b.seq++
		b.noteFlags(e)
		e.unit.Time = fresh[k].unit.Time
		b.slots.Add(e.unit.Seq, e.unit.Facts)
	}
	b.openHuman = -1
	if len(moved) == 1 {
		b.openHuman = moved[0].unit.Group // its reply is still to come
	}
	if end < len(b.pool) {
		// Positions changed: the lexical index and the matrix are by
		// position, and each unit's novelty is judged against those
		// before it.
		b.mat, b.matDim = nil, 0 // the units point into the old one: a new one, not overwritten
		if b.index != nil {
			b.index.MoveToEnd(first, end-first) // renumbered, not rebuilt
		}
	}
	return moved
}

// sameSquashed reports whether a and b are the same text once each run of
// white space is one space and leading and trailing white space dropped,
// without building either.
func sameSquashed(a, b string) bool {
	i, j := skipSpace(a, 0), skipSpace(b, 0)
	for i < len(a) && j < len(b) {
		ra, wa := utf8.DecodeRuneInString(a[i:])
		rb, wb := utf8.DecodeRuneInString(b[j:])
		sa, sb := unicode.IsSpace(ra), unicode.IsSpace(rb)
		switch {
		case sa && sb:
			i, j = skipSpace(a, i), skipSpace(b, j)
			if (i == len(a)) != (j == len(b)) {
				return false
			}
		case sa || sb || ra != rb:
			return false
		default:
			i, j = i+wa, j+wb
		}
	}
	return skipSpace(a, i) == len(a) && skipSpace(b, j) == len(b)
}

// skipSpace returns the position of the first rune of s at or after i that
// is not white space.
func skipSpace(s string, i int) int {
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += w
	}
	return i
}
