package relevance

import "github.com/engram-go/engram/internal/lexical"

// Index is the lexical side of relevance: BM25 over a document's stemmed
// words, and what each document says of itself: its speaker, whether it
// asks, whether the one before it asked.
//
// Like lexical.Index it is not safe for concurrent use.
type Index struct {
	words     *lexical.Index
	speaker   []int32  // by document: its speaker's number in speakers, or −1
	speakers  []string // distinct, see SpeakerOf
	speakerID map[string]int32
	asks      []bool // by document: it asks something
	asked     []bool // by document: the document before it asks
}

// NewIndex returns an empty index.
func NewIndex() *Index { return &Index{words: lexical.New()} }

// DocFreq returns how many documents hold the stemmed word t.
func (ix *Index) DocFreq(t string) int { return ix.words.DocFreq(t) }

// Len returns the number of documents.
func (ix *Index) Len() int { return ix.words.Len() }

// Add indexes document doc: text is the document as written (for its
// speaker and whether it asks), prev the document before it in the
// conversation or −1, terms its stemmed words (text.Terms).
func (ix *Index) Add(doc int, text string, prev int, terms []string) {
	ix.words.Add(doc, terms)
	for len(ix.speaker) <= doc {
		ix.speaker = append(ix.speaker, -1)
		ix.asks = append(ix.asks, false)
		ix.asked = append(ix.asked, false)
	}
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

// MoveToEnd renumbers the documents as if the n from from on were taken
// out and added again after the last, each the one after the document
// numbered before it, as a conversation's turns are (lexical.Index's
// MoveToEnd). The ids must be 0 … Len()−1.
func (ix *Index) MoveToEnd(from, n int) {
	d := len(ix.speaker)
	if n <= 0 || from < 0 || from+n > d || d != len(ix.asks) {
		return
	}
	ix.words.MoveToEnd(from, n)
	lexical.Rotate(ix.speaker[from:], n)
	lexical.Rotate(ix.asks[from:], n)
	for j := from; j < d; j++ {
		ix.asked[j] = j > 0 && ix.asks[j-1]
	}
}

// Compact drops the documents keep marks false and numbers the rest 0, 1,
// … in their order (lexical.Index's Compact), as if only they had been
// added: the document before each is the kept one before it. keep covers
// every id.
func (ix *Index) Compact(keep []bool) {
	if len(keep) != len(ix.speaker) || len(keep) != ix.words.Cap() {
		return
	}
	ix.words.Compact(keep)
	j := 0
	for d, k := range keep {
		if k {
			ix.speaker[j], ix.asks[j] = ix.speaker[d], ix.asks[d]
			j++
		}
	}
	ix.speaker, ix.asks, ix.asked = ix.speaker[:j], ix.asks[:j], ix.asked[:j]
	for d := range ix.asked {
		ix.asked[d] = d > 0 && ix.asks[d-1]
	}
}

// score adds the weighted BM25 of q's words into out.
func (ix *Index) score(terms map[string]float64, out []float64) { ix.words.Score(terms, out) }
