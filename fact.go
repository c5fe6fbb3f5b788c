package engram

import (
	"context"
	"strings"
	"unicode"
)

// Fact is one thing a unit states about a subject: "Omar: we moved to
// Edinburgh" states Fact{Subject: "Omar", Relation: "home city", Value:
// "Edinburgh"}. Facts with the same [Fact.Key] fill one slot, and the one
// stated last holds the slot's current value: it supersedes the others.
//
// A memory reads facts with a [FactExtractor] when a unit is saved
// (option.WithFacts). At a load, a unit one of
// whose slots has a newer value passes its relevance on to the unit that
// states the newest, so that a question the old statement matches ("Which
// city does Omar live in?" against "I live in Lisbon") is answered with
// the new one, which may share no word with it.
type Fact struct {
	// Subject is whom or what the fact is about, by name ("Omar",
	// "Omar's sister Leah"), never a pronoun.
	Subject string
	// Relation names the slot the value fills ("home city", "employer").
	Relation string
	// Value is what the unit says fills it ("Edinburgh").
	Value string
}

// Key returns the fact's slot: its subject and relation, folded to lower
// case with runs of space and punctuation made one space, joined by "|".
// Facts whose keys are equal are about the same thing.
func (f Fact) Key() string { return fold(f.Subject) + "|" + fold(f.Relation) }

// SameValue reports whether g gives f's slot the same value, compared
// folded like [Fact.Key].
func (f Fact) SameValue(g Fact) bool { return fold(f.Value) == fold(g.Value) }

// Valid reports whether the fact names a subject, a relation and a value:
// each has a letter or digit.
func (f Fact) Valid() bool {
	return fold(f.Subject) != "" && fold(f.Relation) != "" && fold(f.Value) != ""
}

// fold lower-cases s and turns every run of characters that are neither
// letters nor digits into one space, trimmed at both ends.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	gap := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if gap && b.Len() > 0 {
				b.WriteByte(' ')
			}
			gap = false
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		gap = true
	}
	return b.String()
}

// FactExtractor reads the facts a unit's text states, as the unit is
// saved. known holds the current value of slots the memory already has,
// newest first and at most [MaxKnownFacts] of them, so that an extractor
// can name a slot the way it was named before: a restated or changed fact
// must reuse its slot's Subject and Relation to supersede it.
//
// Most units state no fact; return none. A memory logs an extractor's
// error and stores the unit without facts: extraction never makes a save
// fail. An extractor may be called from several goroutines at once.
type FactExtractor func(ctx context.Context, u Unit, known []Fact) ([]Fact, error)

// MaxKnownFacts is how many known slots a memory passes a [FactExtractor].
const MaxKnownFacts = 64
