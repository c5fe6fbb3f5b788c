package dmem

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/internal/nearby"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/internal/text"
)

// Novelty is surprise where no reward comes: the share of a step that the
// memory could not have predicted. Two cheap views of it are multiplied:
//
//   - lexical: how much new information the words bring — every content
//     term counts 1/(1+df), where df is how many earlier steps used it,
//     numbers and names twice that, every pair of neighbouring terms half
//     (a known name in a new relation is news), and a "remember" directive
//     adds to it; small talk reuses a small vocabulary and its phrases, so it
//     soon counts for little, however often it says "today";
//   - semantic: 1 − c⁶, where c is the highest cosine to a recent step or to
//     a stored unit found by locality-sensitive hashing; a repeat scores 0,
//     a sentence that merely shares a pattern with others hardly loses.
const (
	salientInfo   = 2.0 // weight of a number or a name
	pairInfo      = 0.5 // weight of a pair of neighbouring terms
	directiveInfo = 1.5 // for a "remember …" directive
	infoScale     = 2.0 // information at which lexical novelty is 1 − 1/e
	seenWindow    = 64  // recent steps compared whatever their route
)

// keys returns the distinct terms and neighbouring pairs ("a b") of a
// step: what document frequencies are kept for.
func keys(terms []string) []string {
	out := make([]string, 0, 2*len(terms))
	out = append(out, terms...)
	for i := 1; i < len(terms); i++ {
		out = append(out, terms[i-1]+" "+terms[i])
	}
	return uniq(out)
}

// termKey is the key under which the memory counts a term or a pair of
// terms: a 64-bit FNV-1a hash, so that the counts hold no strings (the
// store keeps the terms). Two terms sharing one would only look less new.
func termKey(t string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(t); i++ {
		h ^= uint64(t[i])
		h *= 1099511628211
	}
	return h
}

// lexicalNovelty returns 1 − exp(−info/infoScale) for the distinct keys,
// the salient ones (numbers, names) weighted up.
func lexicalNovelty(keys []string, salient map[string]bool, flags engram.Flags, df map[uint64]uint32) float64 {
	info := 0.0
	for _, k := range keys {
		w := 1.0
		switch {
		case strings.IndexByte(k, ' ') >= 0:
			w = pairInfo
		case salient[k]:
			w = salientInfo
		}
		info += w / (1 + float64(df[termKey(k)]))
	}
	if flags.Has(engram.FlagDirective) {
		info += directiveInfo
	}
	return 1 - math.Exp(-info/infoScale)
}

// salientTerms returns the terms of a text's words (text.Split) that are
// numbers, or names: capitalised words that do not open a sentence.
func salientTerms(words []text.Word) map[string]bool {
	out := make(map[string]bool)
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w.Raw)
		digit := strings.ContainsAny(w.Norm, "0123456789")
		if !digit && (w.SentenceStart || !unicode.IsUpper(r)) {
			continue
		}
		n := strings.ReplaceAll(w.Norm, "’", "'")
		if i := strings.IndexByte(n, '\''); i > 0 {
			n = n[:i]
		}
		if !text.IsStop(n) {
			out[text.Stem(n)] = true
		}
	}
	return out
}

// seenRing holds the vectors of the last seenWindow steps, stored or not.
type seenRing struct {
	vecs [seenWindow][]float32
	next int
}

func (r *seenRing) add(v []float32) {
	r.vecs[r.next%seenWindow] = v
	r.next++
}

// best returns the highest cosine between v and a recent step.
func (r *seenRing) best(v []float32) float64 {
	b := 0.0
	for _, w := range r.vecs {
		if len(w) == len(v) {
			b = max(b, relevance.Dot(v, w))
		}
	}
	return b
}

// newLSH returns the index of units by vector that novelty and merging
// search (package nearby), comparing whole vectors as the words index
// keeps them.
func (m *Memory) newLSH(dim int) *nearby.Index[*unit] {
	return nearby.New(dim, func(u *unit) *nearby.Entry { return &u.lsh }, func(u *unit, v []float32) float64 { return m.words.dot(u, v) })
}
