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

// score adds the weighted BM25 of q's words into out.
func (ix *Index) score(terms map[string]float64, out []float64) { ix.words.Score(terms, out) }
