package relevance

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engram-go/engram/internal/text"
)

// The context kernel and the cues, measured on real dialogue (LoCoMo's
// development conversations; docs/measurements.md, "What relevance weighs"). In real
// conversation the turn that holds a fact often shares no word with the
// question about it, while the turn before or after does: "Did you make
// it to the concert?" — "Yes! Best night of the year." A turn therefore
// inherits contextNear of its neighbours' relevance and contextFar of the
// turns two away.
const (
	contextNear = 0.5
	contextFar  = 0.25
	// speakerCue is added, in units of the best document's relevance, to
	// every turn whose speaker the question names: "What did Caroline
	// paint?" is answered by Caroline.
	speakerCue = 0.25
	// askedCue is added for a turn that follows a question: an answer.
	askedCue = 0.1
)

// contextReach is how many turns on each side the kernel reaches.
const contextReach = 2

// inContext returns rel, scaled to a maximum of 1, plus each document's
// neighbours' share, written into out (of rel's length, overwritten); rel
// itself if it is all zero.
func inContext(out, rel []float64, c Corpus) []float64 {
	m := largest(rel)
	if m == 0 {
		return rel
	}
	if s, ok := c.(Sequential); ok && s.Sequential() && contextReach == 2 {
		inSequence(out, rel, m)
		if h, ok := c.(Holed); ok {
			// No neighbour reaches an empty place: its sum is its own.
			for i := range h.Empty {
				out[i] = 0
				if rel[i] != 0 {
					out[i] = rel[i] / m
				}
			}
		}
		return out
	}
	clear(out)
	for i, x := range rel {
		if x == 0 {
			continue
		}
		x /= m
		out[i] += x
		for k := 1; k <= contextReach; k++ {
			w := contextNear
			if k > 1 {
				w = contextFar
			}
			if j := c.Near(i, k); j >= 0 {
				out[j] += w * x
			}
			if j := c.Near(i, -k); j >= 0 {
				out[j] += w * x
			}
		}
	}
	return out
}

// Sequential is a Corpus that can say its documents are one conversation's
// turns in order, Near(i, k) being i+k wherever that is a document: the
// context kernel then runs as one pass over the array, with no call a
// document.
type Sequential interface {
	Corpus
	Sequential() bool
}

// Holed is a Sequential corpus with empty places, in which Near(i, k) is
// −1 where i+k is empty: documents that left a corpus that keeps its
// numbering until it compacts. Empty yields them in order.
type Holed interface {
	Sequential
	Empty(yield func(int) bool)
}

// inSequence is inContext over a Sequential corpus, rel's maximum m: each
// document's sum is formed in the order inContext forms it — its
// neighbours' shares by their place, its own among them — so the two give
// the same bits.
func inSequence(out, rel []float64, m float64) {
	n := len(rel)
	x := func(i int) float64 {
		if i < 0 || i >= n || rel[i] == 0 {
			return 0 // inContext passes zeros by: 0/m is NaN when m is
		}
		return rel[i] / m
	}
	// The window of scaled values around j: a2 a1 [x0] b1 b2.
	a2, a1, x0, b1, b2 := 0.0, 0.0, x(0), x(1), x(2)
	for j := range n {
		v := 0.0
		v += contextFar * a2
		v += contextNear * a1
		v += x0
		v += contextNear * b1
		v += contextFar * b2
		out[j] = v
		a2, a1, x0, b1, b2 = a1, x0, b1, b2, x(j+3)
	}
}

// cues adds to rel what the turn's speaker and place say, in units of m,
// the best document's relevance. rel[i] is document i's, or docs[i]'s
// when docs is not nil.
func cues(q Query, ix *Index, rel []float64, m float64, docs []int) {
	spk := q.On(Speaker) && speakerCue != 0
	ask := q.On(Asked) && askedCue != 0
	if !spk && !ask {
		return
	}
	if m == 0 {
		return // nothing matched: cues alone choose nothing
	}
	named := make([]bool, len(ix.speakers))
	for id, sp := range ix.speakers {
		_, named[id] = q.Terms[sp]
	}
	for i := range rel {
		d := i
		if docs != nil {
			d = docs[i]
		}
		if d >= len(ix.speaker) {
			break
		}
		if id := ix.speaker[d]; spk && id >= 0 && named[id] {
			rel[i] += speakerCue * m
		}
		if ask && ix.asked[d] {
			rel[i] += askedCue * m
		}
	}
}

// SpeakerOf returns the stemmed name of the speaker a text opens with —
// "Caroline: I went…" — or "" if it does not open with one to three
// capitalised words and a colon.
func SpeakerOf(s string) string {
	head, _, ok := strings.Cut(s, ":")
	if !ok || len(head) == 0 || len(head) > 40 {
		return ""
	}
	fields := strings.Fields(head)
	if len(fields) == 0 || len(fields) > 3 {
		return ""
	}
	for _, f := range fields {
		r, _ := utf8.DecodeRuneInString(f)
		if !unicode.IsUpper(r) {
			return ""
		}
	}
	terms := text.Terms(fields[0])
	if len(terms) == 0 {
		return ""
	}
	return terms[0]
}

// asks reports whether s asks something.
func asks(s string) bool { return strings.Contains(s, "?") }
