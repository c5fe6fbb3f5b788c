package dmem

import (
	"math"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engram-go/engram"
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

// LSH parameters: lshTables tables of lshBits random hyperplanes each. Two
// vectors at cosine 0.95 share a bucket in at least one table with
// probability about 0.9, at 0.9 about 0.75; a bucket holds about
// n/2^lshBits units, so a probe costs a few hundred dot products at 100k.
const (
	lshTables = 6
	lshBits   = 12
)

// lsh finds stored units near a vector without a full scan: random
// hyperplane (SimHash) signatures, several tables. It is approximate; it
// backs novelty and merging, never retrieval.
type lsh struct {
	dim     int
	planes  []float32 // lshTables × lshBits × dim
	buckets map[uint32][]*unit
	mark    uint32 // numbers searches, so that one compares a unit once
	// The keys of the vector last keyed: a save files the very slice it
	// probed with (vectors are never changed in place).
	lastV    []float32
	lastKeys [lshTables]uint32
}

func newLSH(dim int) *lsh {
	r := rand.New(rand.NewPCG(uint64(dim), 0x5eed))
	planes := make([]float32, lshTables*lshBits*dim)
	for i := range planes {
		planes[i] = float32(r.NormFloat64())
	}
	return &lsh{dim: dim, planes: planes, buckets: make(map[uint32][]*unit)}
}

// keys returns the bucket key of v in every table.
func (l *lsh) keys(v []float32) [lshTables]uint32 {
	if len(v) > 0 && len(l.lastV) == len(v) && &l.lastV[0] == &v[0] {
		return l.lastKeys
	}
	var out [lshTables]uint32
	for t := range lshTables {
		var sig uint32
		for b := range lshBits {
			off := (t*lshBits + b) * l.dim
			if relevance.Dot(v, l.planes[off:off+l.dim]) >= 0 {
				sig |= 1 << b
			}
		}
		out[t] = uint32(t)<<lshBits | sig
	}
	l.lastV, l.lastKeys = v, out
	return out
}

func (l *lsh) add(u *unit) {
	if len(u.Embedding) != l.dim {
		return
	}
	for _, k := range l.keys(u.Embedding) {
		l.buckets[k] = append(l.buckets[k], u)
	}
}

func (l *lsh) remove(u *unit) {
	if len(u.Embedding) != l.dim {
		return
	}
	for _, k := range l.keys(u.Embedding) {
		b := l.buckets[k]
		for i, x := range b {
			if x == u {
				b[i] = b[len(b)-1]
				b[len(b)-1] = nil
				b = b[:len(b)-1]
				break
			}
		}
		if len(b) == 0 {
			delete(l.buckets, k)
		} else {
			l.buckets[k] = b
		}
	}
}

// near is a stored unit a probe found, and its cosine with the vector.
type near struct {
	u   *unit
	sim float64
}

// nearest returns the unit most similar to v among those sharing a bucket
// with it, and their cosine (nil if none), and appends to close those at
// or above floor: one probe serves novelty and the search for a repeat.
func (l *lsh) nearest(v []float32, floor float64, close []near) (*unit, float64, []near) {
	if len(v) != l.dim {
		return nil, 0, close
	}
	var best *unit
	bestSim := -1.0
	l.probe(l.keys(v), func(u *unit) {
		s := relevance.Dot(v, u.Embedding)
		if s > bestSim {
			best, bestSim = u, s
		}
		if s >= floor {
			close = append(close, near{u, s})
		}
	})
	return best, max(bestSim, 0), close
}

// lshProbe is the most units a probe compares in one bucket, the newest
// first: a probe costs at most lshTables·lshProbe products whatever the
// memory holds. Real turns crowd a few buckets (at 10,000 units the
// largest held 349, the median 3). Each product reads a unit's vector
// from memory: 16, not 32, made a save at 100,000 turns 4 % cheaper.
const lshProbe = 16

// probe calls fn once for each unit in the buckets ks name, at most
// lshProbe of each bucket, from its end, where units are added.
func (l *lsh) probe(ks [lshTables]uint32, fn func(u *unit)) {
	if l.mark++; l.mark == 0 { // wrapped: 0 is what a new unit holds
		l.mark = 1
	}
	for _, k := range ks {
		b := l.buckets[k]
		for i := len(b) - 1; i >= 0 && i >= len(b)-lshProbe; i-- {
			// A unit sits in a bucket of every table: visit it once.
			if u := b[i]; u.lshMark != l.mark {
				u.lshMark = l.mark
				fn(u)
			}
		}
	}
}
