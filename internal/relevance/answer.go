package relevance

import (
	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/lexicon"
	"github.com/engram-go/engram/internal/text"
)

// AnswerBoost is how much more relevant a document is when it holds the
// kind of thing the question asks for: a date for "when", a place for
// "which city", a job title for "what does she do for work".
var AnswerBoost = 2.0

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
	add(answerType{kinds: lexicon.KindLocation, flags: engram.FlagName}, "where", "city", "town",
		"country", "place", "live", "lives", "living", "based", "move", "moved", "home", "visit", "trip")
	add(answerType{kinds: lexicon.KindPerson, flags: engram.FlagName}, "who", "whom")
	add(answerType{kinds: lexicon.KindPerson}, "job", "work", "occupation", "profession", "career",
		"role", "position", "employed")
	add(name, "name", "called", "employer", "company", "firm")
	add(answerType{kinds: lexicon.KindAnimal}, "pet", "dog", "cat", "animal", "breed")
	add(answerType{kinds: lexicon.KindAct}, "hobby", "pastime", "unwind", "relax", "fun", "into", "free")
	add(answerType{kinds: lexicon.KindArtifact}, "car", "vehicle", "drive", "instrument", "bought", "buy", "own")
	add(answerType{kinds: lexicon.KindFood}, "food", "eat", "dish", "meal", "cuisine", "snack", "drink")
	add(answerType{kinds: lexicon.KindCommunication, flags: engram.FlagName}, "book", "novel", "read", "author")
	return m
}()

// expectedAnswer returns what the question s asks for; zero if it cannot tell.
func expectedAnswer(s string) answerType {
	var a answerType
	for _, w := range text.Split(s) {
		c, ok := answerCues[text.Stem(w.Norm)]
		if ok {
			a.kinds |= c.kinds
			a.flags |= c.flags
		}
	}
	return a
}

// docKinds returns the WordNet classes of a document's terms.
func docKinds(terms []string) lexicon.Kind {
	var k lexicon.Kind
	for _, t := range terms {
		k |= lexicon.Kinds(t)
	}
	return k
}

// answers reports whether a document with these classes and flags holds an
// answer of type a.
func (a answerType) answers(k lexicon.Kind, f engram.Flags) bool {
	return k&a.kinds != 0 || f&a.flags != 0
}
