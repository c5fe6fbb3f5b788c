package vecindex

import (
	"cmp"
	"container/heap"
	"math"
	"slices"

	"github.com/engram-go/engram/internal/relevance"
)

// blockRows is how many vectors one allocation of rows holds. Rows never
// move once given out: chromem keeps each as its document's vector.
const blockRows = 1024

// rows holds an index's vectors, one row an id, in blocks that are never
// reallocated; a removed id's row is reused by the next id added. Its
// owner serialises Add and Remove with Nearest (Index's doc).
type rows struct {
	dim    int
	blocks [][]float32
	ids    []string // by row; "" for a free row
	at     map[string]int32
	free   []int32
}

// put copies vec into id's row, taking a free one or a new one, and
// returns the row.
func (r *rows) put(id string, vec []float32) []float32 {
	if r.dim == 0 {
		r.dim = len(vec)
	}
	k, ok := r.at[id]
	switch {
	case ok:
	case len(r.free) > 0:
		k = r.free[len(r.free)-1]
		r.free = r.free[:len(r.free)-1]
	default:
		k = int32(len(r.ids))
		r.ids = append(r.ids, "")
		if int(k)%blockRows == 0 {
			r.blocks = append(r.blocks, make([]float32, blockRows*r.dim))
		}
	}
	r.ids[k], r.at[id] = id, k
	row := r.row(k)
	copy(row, vec)
	// At unit length, as chromem keeps its documents, so that a dot
	// product is the cosine.
	var s float64
	for _, x := range row {
		s += float64(x) * float64(x)
	}
	if s > 0 && (s < 1-1e-6 || s > 1+1e-6) {
		inv := 1 / math.Sqrt(s)
		for i, x := range row {
			row[i] = float32(float64(x) * inv)
		}
	}
	return row
}

// row returns row k.
func (r *rows) row(k int32) []float32 {
	b, i := int(k)/blockRows, int(k)%blockRows
	return r.blocks[b][i*r.dim : (i+1)*r.dim : (i+1)*r.dim]
}

// drop frees id's row.
func (r *rows) drop(id string) {
	k, ok := r.at[id]
	if !ok {
		return
	}
	delete(r.at, id)
	r.ids[k] = ""
	r.free = append(r.free, k)
}

// nearest returns up to n ids whose rows are nearest q, best first (ties
// by id, so that equal vectors come back in one order).
func (r *rows) nearest(q []float32, n int) []Hit {
	n = min(n, len(r.at))
	if n <= 0 || len(q) != r.dim {
		return nil
	}
	best := make(hits, 0, n+1)
	for k, id := range r.ids {
		if id == "" {
			continue
		}
		h := Hit{ID: id, Sim: relevance.Dot(r.row(int32(k)), q)}
		if len(best) < n {
			heap.Push(&best, h)
		} else if worse(best[0], h) {
			best[0] = h
			heap.Fix(&best, 0)
		}
	}
	slices.SortFunc(best, func(a, b Hit) int {
		if c := cmp.Compare(b.Sim, a.Sim); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return best
}

// worse reports whether a ranks below b.
func worse(a, b Hit) bool { return a.Sim < b.Sim || a.Sim == b.Sim && a.ID > b.ID }

// hits is a min-heap of the best hits so far, the worst on top.
type hits []Hit

func (h hits) Len() int           { return len(h) }
func (h hits) Less(i, j int) bool { return worse(h[i], h[j]) }
func (h hits) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hits) Push(x any)        { *h = append(*h, x.(Hit)) }
func (h *hits) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
