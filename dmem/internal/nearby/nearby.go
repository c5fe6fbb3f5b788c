package nearby

import (
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/engram-go/engram/internal/relevance"
)

// Index parameters: Tables tables of Bits random hyperplanes each. Two
// vectors at cosine 0.95 share a bucket in at least one table with
// probability about 0.9, at 0.9 about 0.75; a bucket holds about n/2^Bits
// items.
const (
	Tables = 6
	Bits   = 12
)

// Probe is the most items a search compares in one bucket, the newest
// first: a search costs at most Tables·Probe products whatever the index
// holds. Real turns crowd a few buckets (at 10,000 units the largest held
// 349, the median 3). Each product reads an item's vector from memory:
// 16, not 32, made a save at 100,000 turns 4 % cheaper.
const Probe = 16

// farSigns is how many of the Tables·Bits signs two vectors must differ in
// for a search not to compare them. Each sign differs with probability
// angle/π, so 30 of 72 is an angle of about 75°, a cosine of 0.26. An item
// at cosine 0.8 is that far once in about 10⁵ searches, one at 0.6 (whose
// sixth power, what a memory's novelty weighs, is 0.05) under 1 in 20.
// Skipping the far spares reading their vectors, most of a search's cost.
const farSigns = 30

// Entry is the index's record of an item, kept in the item itself so that
// a search reads one cache line before deciding to read the vector.
type Entry struct {
	mark uint32         // the search that last compared the item
	keys [Tables]uint32 // its buckets, while the index holds it; zero when it does not
}

// filed reports whether the index holds the item: the last table's key
// carries its table number, never 0.
func (e *Entry) filed() bool { return e.keys[Tables-1] != 0 }

// Index holds items of type T, each with an Entry that the index reaches
// through the function New is given, and a vector that only the owner
// keeps: the index takes the products with it that a search needs
// through the owner's dot, so the owner may keep its vectors in whatever
// form it likes (the memory's words index packs them). Its owner
// serialises every call.
type Index[T comparable] struct {
	dim     int
	planes  []float32 // Tables × Bits × dim
	buckets map[uint32][]T
	entry   func(T) *Entry
	dot     func(T, []float32) float64
	mark    uint32 // numbers searches, so that one compares an item once
	// The keys of the vector last keyed: an owner that adds the very slice
	// it searched with does not key it again (vectors never change in place).
	lastV    []float32
	lastKeys [Tables]uint32
}

// New returns an empty index of vectors of dim dimensions; entry returns
// an item's Entry, and dot the product of an item's vector with a vector
// of dim dimensions. The hyperplanes depend on dim alone, so an index
// rebuilt from the same items files them in the same buckets.
func New[T comparable](dim int, entry func(T) *Entry, dot func(T, []float32) float64) *Index[T] {
	r := rand.New(rand.NewPCG(uint64(dim), 0x5eed))
	planes := make([]float32, Tables*Bits*dim)
	for i := range planes {
		planes[i] = float32(r.NormFloat64())
	}
	return &Index[T]{dim: dim, planes: planes, buckets: make(map[uint32][]T), entry: entry, dot: dot}
}

// keys returns the bucket key of v in every table.
func (l *Index[T]) keys(v []float32) [Tables]uint32 {
	if len(v) > 0 && len(l.lastV) == len(v) && &l.lastV[0] == &v[0] {
		return l.lastKeys
	}
	var out [Tables]uint32
	for t := range Tables {
		var sig uint32
		for b := range Bits {
			off := (t*Bits + b) * l.dim
			if relevance.Dot(v, l.planes[off:off+l.dim]) >= 0 {
				sig |= 1 << b
			}
		}
		out[t] = uint32(t)<<Bits | sig
	}
	l.lastV, l.lastKeys = v, out
	return out
}

// Add files x, whose vector is v; an item whose vector is not of the
// index's dimension is not filed.
func (l *Index[T]) Add(x T, v []float32) {
	if len(v) != l.dim {
		return
	}
	e := l.entry(x)
	e.keys = l.keys(v)
	for _, k := range e.keys {
		l.buckets[k] = append(l.buckets[k], x)
	}
}

// Remove unfiles x, by the buckets its Entry names; an item not filed is
// left alone. The others keep their order, oldest first, so that a search
// still compares the newest of each bucket.
func (l *Index[T]) Remove(x T) {
	e := l.entry(x)
	if !e.filed() {
		return
	}
	for _, k := range e.keys {
		b := l.buckets[k]
		if i := slices.Index(b, x); i >= 0 {
			b = slices.Delete(b, i, i+1) // zeroes the freed slot
		}
		if len(b) == 0 {
			delete(l.buckets, k)
		} else {
			l.buckets[k] = b
		}
	}
	e.keys = [Tables]uint32{}
}

// Near is an item a search found, and its cosine with the vector.
type Near[T any] struct {
	Item T
	Sim  float64
}

// Nearest returns the item most similar to the unit vector v among those
// sharing a bucket with it and not far from it, and their cosine (the zero
// T and 0 if none), and appends to close those at or above floor: one
// search serves novelty and the search for a repeat.
func (l *Index[T]) Nearest(v []float32, floor float64, close []Near[T]) (T, float64, []Near[T]) {
	var best T
	if len(v) != l.dim {
		return best, 0, close
	}
	bestSim := -1.0
	ks := l.keys(v)
	if l.mark++; l.mark == 0 { // wrapped: 0 is what a new item holds
		l.mark = 1
	}
	for _, k := range ks {
		b := l.buckets[k]
		for i := len(b) - 1; i >= 0 && i >= len(b)-Probe; i-- {
			e := l.entry(b[i])
			// An item sits in a bucket of every table: compare it once.
			if e.mark == l.mark {
				continue
			}
			e.mark = l.mark
			if far(ks, e.keys) {
				continue
			}
			s := l.dot(b[i], v)
			if s > bestSim {
				best, bestSim = b[i], s
			}
			if s >= floor {
				close = append(close, Near[T]{b[i], s})
			}
		}
	}
	return best, max(bestSim, 0), close
}

// far reports whether keys a and b differ in farSigns or more signs.
func far(a, b [Tables]uint32) bool {
	n := 0
	for t := range Tables {
		n += bits.OnesCount32((a[t] ^ b[t]) & (1<<Bits - 1))
	}
	return n >= farSigns
}
