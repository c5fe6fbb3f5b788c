package ann

import (
	"fmt"
	"sync"

	"github.com/viterin/vek/vek32"
)

// Defaults, chosen by measurement on GloVe sentence vectors (bench_test.go).
const (
	// defaultTrainAt is the size at which the index first trains its
	// lists; below it Search is an exact scan, which at this size costs
	// about as much as probing.
	defaultTrainAt = 4096
	// defaultProbes is how many lists a Search scans: on LoCoMo turns
	// (GloVe, 100 dimensions, k = 64) recall 0.97 at 100,000 vectors and
	// 0.96 to 0.97 at 1,000,000, where 48 lists fell to 0.95.
	defaultProbes = 64
	// defaultPerRoot is how many lists the index trains per √n vectors.
	// On real dialogue grown to 100,000 turns (BenchmarkSearchRealTurns,
	// the 128 nearest) √n lists probed 64 at a time found 0.973 of them;
	// fewer codes scanned cost recall: 48 probes found 0.959 in 0.8 of the
	// time, 2√n lists 0.952 in 0.67, at twice the cost of an Add.
	defaultPerRoot = 1
	// growth is how much the index grows between two trainings.
	growth = 2
)

// Index finds the ids whose vectors have the largest inner product with a
// query. The zero Index is not usable; call [New].
type Index struct {
	dim int
	// lists holds every vector once; one list until the index is trained.
	lists []list
	// cents holds one unit centroid per list, len(lists)·dim, or nil
	// while the index is untrained.
	cents []float32
	// where maps each id to its list.
	where map[int32]int32

	trainAt   int // size of the first training
	nextTrain int // size of the next training
	probes    int // lists a Search scans
	perRoot   int // lists per √n vectors at a training
	rerank    int // candidates re-ranked exactly beyond k

	scratch sync.Pool // of *scratch
}

// list is one inverted list: its vectors' ids, scales and int8 codes, in
// slot order, the codes back to back.
type list struct {
	ids    []int32
	scales []float32
	codes  []int8
}

// New returns an empty index of dim-dimensional vectors. A dim below 1 is
// taken as 1.
func New(dim int) *Index {
	dim = max(dim, 1)
	return &Index{
		dim:       dim,
		lists:     make([]list, 1),
		where:     make(map[int32]int32),
		trainAt:   defaultTrainAt,
		nextTrain: defaultTrainAt,
		probes:    defaultProbes,
		perRoot:   defaultPerRoot,
		rerank:    defaultRerank,
	}
}

// Len returns the number of ids in the index.
func (ix *Index) Len() int { return len(ix.where) }

// Dim returns the length of the vectors the index takes.
func (ix *Index) Dim() int { return ix.dim }

// Add indexes v under id, replacing the vector id had. v should be of unit
// length; the index keeps an int8 copy of it. It returns an error wrapping
// [ErrDimension], [ErrNotFinite] or [ErrNegativeID], and changes nothing,
// if v or id cannot be indexed.
//
// An Add that takes the index to twice the size of its last training (at
// 4,096 vectors first) retrains its lists, a pause proportional to the
// size: 0.18 s at 65,536 vectors, 1.0 s at 524,288, 2.7 s at 1,048,576
// (100 dimensions, two cores, which training uses). With those pauses
// counted, an Add costs 11
// to 12 µs on average over the first 1,000,000 (BenchmarkAdd).
func (ix *Index) Add(id int32, v []float32) error {
	switch {
	case len(v) != ix.dim:
		return fmt.Errorf("ann: add %d: %d components, index has %d: %w", id, len(v), ix.dim, ErrDimension)
	case id < 0:
		return fmt.Errorf("ann: add %d: %w", id, ErrNegativeID)
	case !finite(v):
		return fmt.Errorf("ann: add %d: %w", id, ErrNotFinite)
	}
	if l, ok := ix.where[id]; ok {
		ix.removeFrom(l, id)
	}
	l := ix.nearest(v)
	ls := &ix.lists[l]
	var s float32
	ls.codes, s = encode(ls.codes, v)
	ls.scales = append(ls.scales, s)
	ls.ids = append(ls.ids, id)
	ix.where[id] = l
	if ix.Len() >= ix.nextTrain {
		ix.train()
	}
	return nil
}

// nearest returns the list whose centroid has the largest dot product with
// v (the smaller index on a tie).
func (ix *Index) nearest(v []float32) int32 {
	d := ix.dim
	best, bs := int32(0), float32(0)
	for c := range len(ix.cents) / d {
		if s := vek32.Dot(ix.cents[c*d:(c+1)*d], v); c == 0 || s > bs {
			best, bs = int32(c), s
		}
	}
	return best
}

// Remove drops id from the index; an absent id is a no-op.
func (ix *Index) Remove(id int32) {
	if l, ok := ix.where[id]; ok {
		ix.removeFrom(l, id)
		ix.shrink()
	}
}

// removeFrom deletes id from list l, moving the list's last entry into its
// slot.
func (ix *Index) removeFrom(l int32, id int32) {
	ls := &ix.lists[l]
	for i, x := range ls.ids {
		if x == id {
			ls.drop(i, ix.dim)
			break
		}
	}
	delete(ix.where, id)
}

// drop deletes slot i, moving the last entry into it.
func (ls *list) drop(i, dim int) {
	last := len(ls.ids) - 1
	ls.ids[i], ls.scales[i] = ls.ids[last], ls.scales[last]
	copy(ls.codes[i*dim:(i+1)*dim], ls.codes[last*dim:])
	ls.ids, ls.scales, ls.codes = ls.ids[:last], ls.scales[:last], ls.codes[:last*dim]
}

// Renumber gives every id the number f returns for it, and drops the ids
// for which f returns a negative number, without touching their vectors.
// Call it after renumbering the rows the ids stand for, e.g. when the owner
// compacts its storage. Should f give two ids one number, the one met
// first is kept and the other dropped. f is called once per id.
func (ix *Index) Renumber(f func(old int32) int32) {
	where := make(map[int32]int32, len(ix.where))
	for l := range ix.lists {
		ls := &ix.lists[l]
		for i := 0; i < len(ls.ids); {
			id := f(ls.ids[i])
			if _, dup := where[id]; id < 0 || dup {
				ls.drop(i, ix.dim) // the entry moved into slot i is not yet renumbered
				continue
			}
			ls.ids[i] = id
			where[id] = int32(l)
			i++
		}
	}
	ix.where = where
	ix.shrink()
}

// shrink returns the index to one list, searched exactly, when removals
// have taken it far below the size it was trained at.
func (ix *Index) shrink() {
	if ix.cents == nil || ix.Len() >= ix.trainAt/2 {
		return
	}
	var all list
	for _, ls := range ix.lists {
		all.ids = append(all.ids, ls.ids...)
		all.scales = append(all.scales, ls.scales...)
		all.codes = append(all.codes, ls.codes...)
	}
	ix.lists, ix.cents = []list{all}, nil
	clear(ix.where)
	for _, id := range all.ids {
		ix.where[id] = 0
	}
	ix.nextTrain = ix.trainAt
}
