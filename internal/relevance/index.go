package relevance

import (
	"slices"

	"github.com/engram-go/engram/internal/lexical"
)

// Index is the lexical side of relevance: BM25 over a document's stemmed
// words, and what each document says of itself: its speaker, whether it
// asks, whether the one before it asked, and its novelty.
//
// Like lexical.Index it is not safe for concurrent use.
type Index struct {
	words     *lexical.Index
	novelty   []float64 // by document; see Novelty
	speaker   []int32   // by document: its speaker's number in speakers, or −1
	speakers  []string  // distinct, see SpeakerOf
	speakerID map[string]int32
	asks      []bool // by document: it asks something
	asked     []bool // by document: the document before it asks
}

// freshWords is how many words never seen before make a document fully
// novel.
const freshWords = 4

// NewIndex returns an empty index.
func NewIndex() *Index { return &Index{words: lexical.New()} }

// DocFreq returns how many documents hold the stemmed word t.
func (ix *Index) DocFreq(t string) int { return ix.words.DocFreq(t) }

// Len returns the number of documents.
func (ix *Index) Len() int { return ix.words.Len() }

// Add indexes document doc: text is the document as written (for its
// speaker and whether it asks), prev the document before it in the
// conversation or −1, terms its stemmed words (text.Terms), and novelty,
// clamped to [0, 1], NoveltyOf its terms judged against what came before
// it and kept by the caller, so that a rebuilt index does not judge a
// document again after earlier ones have gone.
func (ix *Index) Add(doc int, text string, prev int, terms []string, novelty float64) {
	ix.words.Add(doc, terms)
	for len(ix.novelty) <= doc {
		ix.novelty = append(ix.novelty, 0)
		ix.speaker = append(ix.speaker, -1)
		ix.asks = append(ix.asks, false)
		ix.asked = append(ix.asked, false)
	}
	ix.novelty[doc] = min(1, max(0, novelty))
	ix.speaker[doc], ix.asks[doc] = -1, asks(text)
	if sp := SpeakerOf(text); sp != "" {
		id, ok := ix.speakerID[sp]
		if !ok {
			if ix.speakerID == nil {
				ix.speakerID = make(map[string]int32)
			}
			id = int32(len(ix.speakers))
			ix.speakers = append(ix.speakers, sp)
			ix.speakerID[sp] = id
		}
		ix.speaker[doc] = id
	}
	ix.asked[doc] = prev >= 0 && prev < len(ix.asks) && ix.asks[prev]
}

// NoveltyOf returns how much a document with terms (stemmed, as text.Terms
// gives them) tells a memory that has seen the words for which seen is
// true: the number of its distinct words never seen before, divided by
// freshWords, at most 1. It is the memory's own surprise at the text. A
// fact is mostly first mentions ("Luna the Maine Coon has joined the
// family"); small talk repeats the conversation's words ("the cat has been
// so lazy"), and a repeat of a fact adds nothing.
func NoveltyOf(terms []string, seen func(term string) bool) float64 {
	fresh := 0
	var counted map[string]bool // for long texts, where a scan would be quadratic
	if len(terms) > 64 {
		counted = make(map[string]bool)
	}
	for i, t := range terms {
		if seen(t) {
			continue
		}
		if counted != nil {
			if counted[t] {
				continue
			}
			counted[t] = true
		} else if slices.Contains(terms[:i], t) {
			continue
		}
		if fresh++; fresh >= freshWords {
			break
		}
	}
	return min(1, float64(fresh)/freshWords)
}

// Seen reports whether some indexed document holds the stemmed word t.
func (ix *Index) Seen(t string) bool { return ix.words.DocFreq(t) > 0 }

// Novelty returns the novelty document doc was added with.
func (ix *Index) Novelty(doc int) float64 {
	if doc < 0 || doc >= len(ix.novelty) {
		return 0
	}
	return ix.novelty[doc]
}

// score adds the weighted BM25 of q's words into out.
func (ix *Index) score(terms map[string]float64, out []float64) { ix.words.Score(terms, out) }
