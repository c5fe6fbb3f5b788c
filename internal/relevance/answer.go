package relevance

import (
	"math"
	"slices"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/lexicon"
	"github.com/engram-go/engram/internal/text"
)

// answerBoost is how much more relevant a document is when it holds the
// kind of thing the question asks for: a date for "when", a place for
// "which city", a job title for "what does she do for work".
const answerBoost = 5.0

// answerType is what a question expects its answer to be: WordNet classes
// (a job title is noun.person, a breed noun.animal) or flags (a date, a
// number, a proper name).
type answerType struct {
	kinds lexicon.Kind
	flags engram.Flags
}

func (a answerType) zero() bool { return a.kinds == 0 && a.flags == 0 }

// answerCues maps a question's words (stemmed) to the answer they ask for.
// It is the coarse answer-type taxonomy of question-answering systems (Li &
// Roth's HUM, LOC, NUM, ENTY classes), in words a conversation uses.
var answerCues = func() map[string]answerType {
	m := make(map[string]answerType)
	add := func(a answerType, words ...string) {
		for _, w := range words {
			s := text.Stem(w)
			m[s] = answerType{m[s].kinds | a.kinds, m[s].flags | a.flags}
		}
	}
	date := answerType{flags: engram.FlagDate}
	number := answerType{flags: engram.FlagNumber}
	name := answerType{flags: engram.FlagName}
	add(date, "when", "date", "day", "month", "year", "recently", "ago")
	add(number, "old", "age", "much", "many", "cost", "price", "pay", "paid", "number", "often")
	add(answerType{kinds: lexicon.KindLocation, flags: engram.FlagName}, "city", "town",
		"country", "place", "live", "lives", "living", "based", "move", "moved", "home", "visit", "trip")
	add(answerType{kinds: lexicon.KindPerson}, "job", "work", "occupation", "profession", "career",
		"role", "position")
	add(name, "name", "called", "employer", "employed", "company", "firm")
	add(answerType{kinds: lexicon.KindAnimal}, "pet", "dog", "cat", "animal", "breed")
	add(answerType{kinds: lexicon.KindAct}, "hobby", "pastime", "unwind", "relax", "fun", "into", "free")
	add(answerType{kinds: lexicon.KindArtifact}, "car", "vehicle", "drive", "instrument", "bought", "buy", "own")
	add(answerType{kinds: lexicon.KindFood}, "food", "eat", "dish", "meal", "cuisine", "snack", "drink")
	add(answerType{kinds: lexicon.KindCommunication, flags: engram.FlagName}, "book", "novel", "read", "author")
	return m
}()

// whCues are what a bare question word asks for. They yield to the
// question's focus words: "where" asks for a place, but "where is she
// employed" for an employer.
var whCues = map[string]answerType{
	"where": {kinds: lexicon.KindLocation, flags: engram.FlagName},
	"who":   {kinds: lexicon.KindPerson, flags: engram.FlagName},
	"whom":  {kinds: lexicon.KindPerson, flags: engram.FlagName},
}

// expectedAnswer returns what the question s asks for; zero if it cannot tell.
func expectedAnswer(s string) answerType {
	var a, wh answerType
	for _, w := range text.Split(s) {
		if c, ok := whCues[w.Norm]; ok {
			wh.kinds |= c.kinds
			wh.flags |= c.flags
		}
		if c, ok := answerCues[text.Stem(w.Norm)]; ok {
			a.kinds |= c.kinds
			a.flags |= c.flags
		}
	}
	if a.zero() {
		return wh
	}
	return a
}

// kindTerms returns the words of a document that have WordNet noun or verb
// classes, each once.
func kindTerms(terms []string) []kindTerm {
	var out []kindTerm
	seen := make(map[string]bool)
	for _, t := range terms {
		k := lexicon.Kinds(t) &^ (lexicon.KindAdj | lexicon.KindAdverb | lexicon.KindPertainym | lexicon.KindParticiple)
		if k == 0 {
			continue
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, kindTerm{t, k})
		}
	}
	return out
}

// match returns how well document doc of ix answers a question of type a,
// in [0, 1]: 1 for a date or number it asks for; otherwise the rarity of the
// document's rarest word of a class it asks for, or of a name the question
// does not already hold — "knitting" answers "what hobby" better than "way"
// or "fun", which are everywhere, and "Reuters" answers "where is Wren
// employed" better than a friend's name met in every other turn.
func (a answerType) match(ix *Index, c Corpus, q Query, doc int) float64 {
	if doc >= len(ix.kinds) {
		return 0
	}
	if ix.flags[doc]&a.flags&^engram.FlagName != 0 {
		return 1
	}
	n := ix.words.Len()
	if n <= 1 {
		return 0
	}
	norm := math.Log(1 + float64(n))
	best := 0.0
	for _, kt := range ix.kinds[doc] {
		if kt.kinds&a.kinds != 0 {
			best = max(best, ix.words.IDF(kt.term)/norm)
		}
	}
	if a.flags&engram.FlagName != 0 {
		for _, name := range c.Names(doc) {
			if !slices.Contains(q.Names, name) {
				best = max(best, ix.words.IDF(name)/norm)
			}
		}
	}
	return min(1, best)
}
