package dmem

import (
	"slices"

	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/internal/text"
)

// words is the lexical side of retrieval: an internal/relevance index (BM25
// over words and WordNet concepts, names, answer types) over the resident
// units, core and short-term, one dense slot per unit in the order they
// became resident, in memory only. A unit that leaves empties its slot;
// once a quarter are empty the index drops them (rebuild), O(1) amortised
// a unit. Guarded by Memory.mu; searches read it under the read lock.
type words struct {
	ix     *relevance.Index
	slots  []*unit // by slot; nil once the unit left
	empty  int     // slots emptied since the last rebuild
	prefix int     // leading embedding components relevance compares; 0 for all
	// rows holds every slot's embedding, row by slot (zeros if empty), and
	// past relevance.GatherAbove a nearest-neighbour index of their
	// compared parts. A resident unit's row is the one copy of its vector,
	// which rebuild moves: moved is told of each unit whose row it moved.
	// Where relevance compares a prefix the rows are packed (see
	// relevance.Rows), about 540 bytes a vector of the default embedder's
	// instead of 912, and the unit's Embedding is nil: vector rebuilds it,
	// dot takes a product with it, and the chromem-go index holds the
	// compared part (indexed). Otherwise the Embedding is the row itself.
	rows  relevance.Rows
	moved func(*unit)
}

var (
	_ relevance.BlockCorpus = (*words)(nil)
	_ relevance.Holed       = (*words)(nil)
)

// newWords returns an empty index whose relevance compares the first
// prefix components of embeddings (all of them for 0); moved is told of
// every unit whose embedding a rebuild moved.
func newWords(prefix int, moved func(*unit)) *words {
	w := &words{ix: relevance.NewIndex(), prefix: prefix, moved: moved}
	w.rows.Compared = prefix
	return w
}

// lexis is what a new step's text says to the words index (its terms) and
// to merging (the names it mentions). Finding them is most of the cost of
// indexing, so a step finds them before taking Memory.mu.
type lexis struct {
	terms []string // text.Terms
	names []string // relevance.Names
}

// lexisOf returns u's lexis, kept for the last units asked of: reading a
// text's words again was a tenth of a save. m.mu is held.
func (m *Memory) lexisOf(u *unit) lexis {
	if lx, ok := m.lexes[u]; ok {
		return lx
	}
	if len(m.lexes) >= lexisCache {
		clear(m.lexes)
	}
	if m.lexes == nil {
		m.lexes = make(map[*unit]lexis, lexisCache)
	}
	lx := lexisOf(u.Text)
	m.lexes[u] = lx
	return lx
}

// lexisCache is how many units' lexis a memory keeps (Memory.lexisOf).
const lexisCache = 256

func lexisOf(s string) lexis {
	s = text.Excerpt(s)
	return lexis{terms: text.Terms(s), names: relevance.Names(s)}
}

// add indexes u, whose text has lx, in a new slot.
func (w *words) add(u *unit, lx lexis) {
	u.slot = len(w.slots)
	w.ix.Add(u.slot, text.Excerpt(u.Text), w.Near(u.slot, -1), facts.Words(lx.terms, u.Facts))
	w.slots = append(w.slots, u)
	if row := w.rows.Append(u.Embedding); row != nil {
		u.Embedding = row
		if w.rows.Packed() {
			u.Embedding = nil
		}
	}
}

// vector returns u's whole embedding in a slice of the caller's own, as
// a unit handed out or written to a store must hold it: the row moves and
// is reused. A packed row is rebuilt.
func (w *words) vector(u *unit) []float32 {
	if u.Embedding == nil && w.unit(u.slot) == u {
		return w.rows.Full(u.slot)
	}
	return slices.Clone(u.Embedding)
}

// dot returns the product of v, a whole embedding, with u's, reading a
// packed row in place: what admission and merging compare (nearby).
func (w *words) dot(u *unit, v []float32) float64 {
	if u.Embedding == nil && w.unit(u.slot) == u {
		return w.rows.Dot(u.slot, v)
	}
	return relevance.Dot(u.Embedding, v)
}

// indexed returns the vector the chromem-go index holds for u, shared
// with the words index: the packed row's compared part, at unit length
// as chromem keeps its documents, or the embedding.
func (w *words) indexed(u *unit) []float32 {
	if u.Embedding == nil && w.unit(u.slot) == u {
		return w.rows.Row(u.slot)
	}
	return u.Embedding
}

// Blocks returns every slot's embedding, one row a slot; none if some
// embedding did not fit.
func (w *words) Blocks() relevance.Blocks {
	if w.rows.Len() != len(w.slots) {
		return relevance.Blocks{}
	}
	return w.rows.Blocks()
}

// remove empties u's slot, and rebuilds the index when a quarter of the
// slots are empty.
func (w *words) remove(u *unit) {
	if u.slot < 0 || u.slot >= len(w.slots) || w.slots[u.slot] != u {
		return
	}
	// Its row is zeroed and reused: a unit that leaves keeps a copy (a
	// reward may still bring the newest step back).
	u.Embedding = w.vector(u)
	w.slots[u.slot] = nil
	w.rows.Clear(u.slot)
	u.slot = -1
	w.empty++
	if w.empty >= 64 && 4*w.empty >= len(w.slots) {
		w.rebuild()
	}
}

// rebuild drops the empty slots (relevance.Index.Compact), no text read
// again: reading them was a fifth of a save once the memory was evicting.
func (w *words) rebuild() {
	keep := make([]bool, len(w.slots))
	inRows := w.rows.Len() == len(w.slots)
	var moved []*unit
	j := 0
	for i, u := range w.slots {
		if keep[i] = u != nil; keep[i] {
			if i != j {
				moved = append(moved, u)
			}
			u.slot, w.slots[j] = j, u
			j++
		}
	}
	w.ix.Compact(keep)
	w.rows.Compact(keep)
	clear(w.slots[j:])
	w.slots, w.empty = w.slots[:j], 0
	if !inRows {
		return
	}
	for _, u := range moved {
		if !w.rows.Packed() {
			u.Embedding = w.rows.Row(u.slot)
		}
		if w.moved != nil {
			w.moved(u)
		}
	}
}

// unit returns the unit in slot i, nil if it is empty.
func (w *words) unit(i int) *unit {
	if i < 0 || i >= len(w.slots) {
		return nil
	}
	return w.slots[i]
}

// Len, Vector, Dense and Near make words the corpus relevance scores.
func (w *words) Len() int { return len(w.slots) }

// Sequential reports that Near(i, k) is slot i+k wherever that slot holds
// a unit, so that relevance's context kernel runs as one pass.
func (w *words) Sequential() bool { return true }

// Empty yields the empty slots in order: Near never reaches them.
func (w *words) Empty(yield func(int) bool) {
	for i, u := range w.slots {
		if u == nil && !yield(i) {
			return
		}
	}
}

func (w *words) Vector(i int) relevance.Vector {
	if v := w.Dense(i); v != nil {
		return relevance.Dense(v)
	}
	return relevance.Vector{}
}

// Dense returns the part of slot i's embedding relevance compares (a
// packed row's, at unit length), nil if the slot is empty.
func (w *words) Dense(i int) []float32 {
	if u := w.slots[i]; u != nil {
		return w.cut(w.indexed(u))
	}
	return nil
}

// cut returns the part of an embedding that relevance compares.
func (w *words) cut(v []float32) []float32 {
	if w.prefix > 0 && len(v) >= w.prefix {
		return v[:w.prefix]
	}
	return v
}

// Near returns the slot k after slot i, or −1 if it is out of range or
// empty. Slots are in step order.
func (w *words) Near(i, k int) int {
	if j := i + k; j >= 0 && j < len(w.slots) && w.slots[j] != nil {
		return j
	}
	return -1
}
