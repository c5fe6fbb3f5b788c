package main

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/glove"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/internal/text"
)

// relatedWords is the least wordsMeet at which the stand-in takes a line to
// be about the question; below it, for every line the memory returned, it
// says it does not know. Measured on the chatbot's sentences (rank_test.go,
// TestBestThreshold): a line that answers a question worded away from it
// scores 0.55 ("What is my job?" against "I work as a marine biologist") to
// 0.77, and 1 with a shared rare word; lines that only resemble the question
// score at most 0.48 ("Which country am I from?" against "My houseplants are
// growing like mad"), most of them below 0.4.
const relatedWords = 0.5

// relevanceShare is the weight of the project's relevance (relevance.Score
// over the returned lines) beside wordsMeet in ranking the lines. It is
// small: with BM25 at 0.7 of relevance, a shared frequent word ("makes",
// "call") outranks a paraphrase, while wordsMeet weighs words by rarity.
const relevanceShare = 0.2

// embedder is the offline default embedder the memories use: GloVe.
var embedder embed.Embedder

// lines is the returned history as a relevance.Corpus. The memory chose
// them, so lines next to each other need not have been said one after the
// other: Near has no neighbours, and no line inherits another's relevance.
type lines []relevance.Vector

func (ls lines) Len() int                      { return len(ls) }
func (ls lines) Vector(i int) relevance.Vector { return ls[i] }
func (lines) Near(int, int) int                { return -1 }

// best returns the index of the line of ls that best answers question, or
// false if none is about it (see relatedWords). A line's score is its
// wordsMeet plus relevanceShare of its relevance.Score — stemmed BM25 beside
// GloVe sentence cosine, over an index of these lines alone. Ties go to the
// more recent line.
func best(question string, ls []string) (int, bool) {
	ix := relevance.NewIndex()
	c := make(lines, len(ls))
	for i, l := range ls {
		terms := text.Terms(l)
		ix.Add(i, l, -1, terms)
		c[i] = relevance.Dense(embedder.Embed(l))
	}
	rel := relevance.Score(relevance.NewQuery(question, embedder.Embed(question)), ix, c)
	top, topScore := -1, 0.0
	for i, l := range ls {
		meet := wordsMeet(question, l)
		if meet < relatedWords {
			continue
		}
		if s := meet + relevanceShare*rel[i]; top < 0 || s >= topScore {
			top, topScore = i, s
		}
	}
	return top, top >= 0
}

// wordsMeet returns how closely the content words of q meet those of l: for
// each word of q, its similarity to the nearest word of l (see similarity),
// averaged with the words' SIF weights, so that rare words count more. A
// question is mostly one or two content words ("What is my job?"), which a
// sentence's mean vector dilutes; matched word to word they meet their
// paraphrase ("I work as a marine biologist"). It is 0 when q has no
// content word.
func wordsMeet(q, l string) float64 {
	lw := glove.Words(l)
	var lv []wordVec
	for _, w := range lw {
		if v, ok := vectorOf(w); ok {
			lv = append(lv, v)
		}
	}
	sum, weights := 0.0, 0.0
	for _, w := range glove.Words(q) {
		if text.IsStop(w) {
			continue
		}
		near := 0.0
		if qv, ok := vectorOf(w); ok {
			for _, v := range lv {
				near = max(near, similarity(qv, v))
			}
		} else if slices.Contains(lw, w) {
			near = 1 // a word GloVe lacks ("kiwi-7731") meets only itself
		}
		sum += glove.Weight(w) * near
		weights += glove.Weight(w)
	}
	if weights == 0 {
		return 0
	}
	return sum / weights
}

// wordVec is a content word's GloVe vector twice, each of unit length: as
// the table holds it, and as glove.Embed gives it, less the direction every
// word shares.
type wordVec struct{ raw, own []float32 }

// similarity is the mean of the two cosines. The raw vectors of frequent
// words meet at 0.6 whatever they mean ("country" and "growing" 0.67);
// without the shared direction some true neighbours fall apart ("job" and
// "work" 0.73 raw, 0.37 without). Their mean keeps the neighbours and
// drops the accidents (rank_test.go).
func similarity(a, b wordVec) float64 {
	return (relevance.Dot(a.raw, b.raw) + relevance.Dot(a.own, b.own)) / 2
}

// vectorOf returns the vectors of a content word; false for a stop word or
// one the table lacks.
func vectorOf(w string) (wordVec, bool) {
	if text.IsStop(w) {
		return wordVec{}, false
	}
	v, ok := glove.Vector(w)
	if !ok {
		return wordVec{}, false
	}
	n := math.Sqrt(relevance.Dot(v[:], v[:]))
	if n == 0 {
		return wordVec{}, false
	}
	raw := make([]float32, len(v))
	for i, x := range v {
		raw[i] = float32(float64(x) / n)
	}
	return wordVec{raw: raw, own: glove.Embed(nil, w)}, true
}

// answerKind is what a question asks for, as far as its words say: a date
// or time ("when"), a quantity ("how old", "how many"), a name ("who",
// "what is it called"), a place ("where").
type answerKind int

const (
	anyAnswer answerKind = iota
	dateAnswer
	numberAnswer
	nameAnswer
	placeAnswer
)

// asksFor returns what a line must hold to answer question: a date or time
// for "when"; a number for "how old", "how many", "how much", "how far",
// "how long" and "how often"; a name for "who", "whose", and a question
// of what something is called or named; a place for "where". It is
// anyAnswer for other questions, whose answers take any form ("what",
// "which").
func asksFor(question string) answerKind {
	ws := glove.Words(question)
	for i, w := range ws {
		switch w {
		case "when":
			return dateAnswer
		case "who", "whom", "whose":
			return nameAnswer
		case "where":
			return placeAnswer
		case "how":
			if i+1 < len(ws) && howMuch[ws[i+1]] {
				return numberAnswer
			}
		}
	}
	for _, w := range ws {
		if w == "called" || w == "named" || w == "name" {
			return nameAnswer
		}
	}
	return anyAnswer
}

// howMuch are the words after "how" that ask for a quantity.
var howMuch = map[string]bool{"old": true, "many": true, "much": true, "far": true, "long": true, "often": true}

// holds reports whether line says something of kind k: a digit, a month,
// a day of the week, an ordinal or a number word ("at seven") for a date;
// a digit or a number word for a number; a capitalised word inside a
// sentence for a name; for a place, a name after "to" or "from", or a
// word after "in", "at", "on", "under", "near" and the like (past "the",
// "my" and other determiners) that is not a time or a number ("in the
// blue drawer", "near Bergen", not "in August", "at seven" or "to my
// aunt"). Words that only gesture at time ("one day", "this morning",
// "last week") do not count: small talk is full of them, and they answer
// no "when".
func holds(k answerKind, line string) bool {
	if k == placeAnswer {
		return holdsPlace(text.Split(line))
	}
	for _, w := range text.Split(line) {
		n := w.Norm
		digit := strings.ContainsAny(n, "0123456789")
		r, _ := utf8.DecodeRuneInString(w.Raw)
		capital := !w.SentenceStart && unicode.IsUpper(r) && len(w.Raw) > 1
		// "may" and "march" are months only with a capital: "you may".
		month := months[n] && (n != "may" && n != "march" || capital)
		switch k {
		case dateAnswer:
			if digit || month || weekdays[strings.TrimSuffix(n, "s")] || ordinals[n] || numbers[n] {
				return true
			}
		case numberAnswer:
			if digit || numbers[n] || ordinals[n] {
				return true
			}
		case nameAnswer:
			if capital && !text.IsStop(n) && !months[n] && !weekdays[strings.TrimSuffix(n, "s")] {
				return true
			}
		}
	}
	return false
}

// holdsPlace reports whether ws say where: see holds.
func holdsPlace(ws []text.Word) bool {
	for i, w := range ws {
		to := w.Norm == "to" || w.Norm == "from"
		if !to && !locative[w.Norm] {
			continue
		}
		j := i + 1
		for j < len(ws) && determiners[ws[j].Norm] {
			j++
		}
		if j == len(ws) {
			continue
		}
		n := ws[j].Norm
		r, _ := utf8.DecodeRuneInString(ws[j].Raw)
		switch {
		case to:
			if unicode.IsUpper(r) && j == i+1 && !months[n] && !weekdays[strings.TrimSuffix(n, "s")] {
				return true
			}
		case !months[n] && !weekdays[strings.TrimSuffix(n, "s")] && !numbers[n] && !ordinals[n] &&
			!timeWords[n] && !strings.ContainsAny(n, "0123456789"):
			return true
		}
	}
	return false
}

var (
	// locative are the prepositions a place follows.
	locative = words("in at on under near above below behind beside inside outside by")
	// determiners may stand between a preposition and its place.
	determiners = words("the a an my our your his her their its this that these those")
	// timeWords say when, not where: "in the morning", "at night".
	timeWords = words("morning afternoon evening night nights weekend weekends week weeks month months year years " +
		"moment time times today tonight tomorrow yesterday summer winter spring autumn minute minutes hour hours day days end")
	months = words("january february march april may june july august september october november december")
	// weekdays, without the plural's s: "on Wednesdays" says when too.
	weekdays = words("monday tuesday wednesday thursday friday saturday sunday")
	// numbers leaves out "one", mostly a pronoun in chat ("one day", "the
	// old one").
	numbers = words("two three four five six seven eight nine ten eleven twelve thirteen fourteen " +
		"fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty " +
		"ninety hundred thousand million dozen half")
	ordinals = words("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth " +
		"thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth")
)

// words is the set of the words of s.
func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
