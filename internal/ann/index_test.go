package ann

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"
)

// build returns an index of m's rows, ids being row numbers.
func build(t testing.TB, m matrix) *Index {
	t.Helper()
	ix := New(m.d)
	for i := range m.n() {
		if err := ix.Add(int32(i), m.row(int32(i))); err != nil {
			t.Fatal(err)
		}
	}
	return ix
}

func ids(hs []hit) []int32 {
	out := make([]int32, len(hs))
	for i, h := range hs {
		out[i] = h.id
	}
	return out
}

func TestAddRejects(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, tc := range []struct {
		name string
		id   int32
		v    []float32
		want error
	}{
		{"short", 1, []float32{1, 0}, ErrDimension},
		{"long", 1, []float32{1, 0, 0, 0}, ErrDimension},
		{"nil", 1, nil, ErrDimension},
		{"negative id", -1, []float32{1, 0, 0}, ErrNegativeID},
		{"NaN", 1, []float32{nan, 0, 0}, ErrNotFinite},
		{"infinity", 1, []float32{0, inf, 0}, ErrNotFinite},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix := New(3)
			_ = ix.Add(1, []float32{0, 0, 1})
			if err := ix.Add(tc.id, tc.v); !errors.Is(err, tc.want) {
				t.Errorf("Add = %v, want %v", err, tc.want)
			}
			// The earlier vector of id 1 is still there, unchanged.
			if got := ix.Search([]float32{0, 0, 1}, 5, nil, nil); !slices.Equal(got, []int32{1}) || ix.Len() != 1 {
				t.Errorf("after a rejected Add: Search = %v, Len = %d", got, ix.Len())
			}
		})
	}
}

func TestSearchBadInput(t *testing.T) {
	ix := New(3)
	_ = ix.Add(1, []float32{1, 0, 0})
	nan := float32(math.NaN())
	for _, tc := range []struct {
		name string
		q    []float32
		k    int
	}{
		{"k zero", []float32{1, 0, 0}, 0},
		{"k negative", []float32{1, 0, 0}, -3},
		{"short query", []float32{1, 0}, 5},
		{"NaN query", []float32{nan, 0, 0}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ix.Search(tc.q, tc.k, nil, []int32{7, 7}); len(got) != 0 {
				t.Errorf("Search = %v, want none", got)
			}
		})
	}
	// A caller's vector of the wrong length or with a NaN does not break
	// the answer: the int8 score or the worst score stands in.
	vectors := func(id int32) []float32 { return []float32{nan, 0, 0} }
	if got := ix.Search([]float32{1, 0, 0}, 5, vectors, nil); !slices.Equal(got, []int32{1}) {
		t.Errorf("Search with NaN vectors = %v", got)
	}
	if got := New(0).Search([]float32{1}, 3, nil, nil); len(got) != 0 {
		t.Errorf("empty index: Search = %v", got)
	}
}

func TestRemoveAndReAdd(t *testing.T) {
	for _, n := range []int{300, 6000} { // exact, and trained
		m := clustered(n, 16, 3)
		ix := build(t, m)
		q := m.row(5)
		if got := ix.Search(q, 1, m.vectors, nil); !slices.Equal(got, []int32{5}) {
			t.Fatalf("n=%d: Search = %v, want [5]", n, got)
		}
		ix.Remove(5)
		ix.Remove(5)
		ix.Remove(int32(n + 10))
		if ix.Len() != n-1 {
			t.Errorf("n=%d: Len = %d after Remove, want %d", n, ix.Len(), n-1)
		}
		if got := ix.Search(q, 64, m.vectors, nil); slices.Contains(got, 5) {
			t.Errorf("n=%d: removed id 5 returned: %v", n, got)
		}
		// Id 7 moves to where row 5 was: Search finds it there, once.
		_ = ix.Add(7, q)
		m.x = slices.Clone(m.x)
		copy(m.row(7), q)
		got := ix.Search(q, 64, m.vectors, nil)
		if len(got) == 0 || got[0] != 7 || slices.Index(got[1:], 7) >= 0 {
			t.Errorf("n=%d: after re-Add, Search = %v, want 7 first and once", n, got)
		}
		if ix.Len() != n-1 {
			t.Errorf("n=%d: Len = %d after re-Add, want %d", n, ix.Len(), n-1)
		}
	}
}

func TestRenumber(t *testing.T) {
	m := clustered(40, 8, 4)
	ix := build(t, m)
	// Drop the odd rows and compact: row 2i becomes i.
	ix.Renumber(func(old int32) int32 {
		if old%2 == 1 {
			return -1
		}
		return old / 2
	})
	var c matrix
	c.d = m.d
	for i := 0; i < m.n(); i += 2 {
		c.x = append(c.x, m.row(int32(i))...)
	}
	if ix.Len() != c.n() {
		t.Fatalf("Len = %d, want %d", ix.Len(), c.n())
	}
	for i := range c.n() {
		q := c.row(int32(i))
		if got, want := ix.Search(q, 5, c.vectors, nil), ids(oracle(c, q, 5)); !slices.Equal(got, want) {
			t.Errorf("query %d: Search = %v, want %v", i, got, want)
		}
	}
	// Two ids given one number: one is kept.
	ix.Renumber(func(old int32) int32 { return old / 2 })
	if ix.Len() != (c.n()+1)/2 {
		t.Errorf("Len = %d after merging pairs, want %d", ix.Len(), (c.n()+1)/2)
	}
	if got := ix.Search(c.row(0), 100, nil, nil); hasDuplicate(got) {
		t.Errorf("duplicate ids: %v", got)
	}
}

func hasDuplicate(ids []int32) bool {
	s := slices.Clone(ids)
	slices.Sort(s)
	return len(slices.Compact(s)) != len(ids)
}

// TestShrink: removals far below the training size return the index to
// one list, searched exactly.
func TestShrink(t *testing.T) {
	m := clustered(5000, 16, 5)
	ix := build(t, m)
	if ix.cents == nil {
		t.Fatal("5,000 vectors: not trained")
	}
	ix.Renumber(func(old int32) int32 { return map[bool]int32{true: old, false: -1}[old < 1000] })
	if ix.cents != nil || len(ix.lists) != 1 || ix.Len() != 1000 {
		t.Fatalf("after dropping to 1,000: %d lists, trained %v, Len %d", len(ix.lists), ix.cents != nil, ix.Len())
	}
	small := matrix{m.d, m.x[:1000*m.d]}
	q := clustered(1, 16, 6).row(0)
	if got, want := ix.Search(q, 10, small.vectors, nil), ids(oracle(small, q, 10)); !slices.Equal(got, want) {
		t.Errorf("Search = %v, want %v", got, want)
	}
}

// TestProperty: after any Adds, Removes and Renumbers, Search over an
// untrained index equals the exact answer, and at any size returns only
// present ids, each once.
func TestProperty(t *testing.T) {
	const d = 6
	rapid.Check(t, func(t *rapid.T) {
		ix := New(d)
		ix.trainAt = rapid.SampledFrom([]int{defaultTrainAt, 16}).Draw(t, "trainAt")
		ix.nextTrain = ix.trainAt
		ix.probes = rapid.IntRange(1, 4).Draw(t, "probes")
		model := map[int32][]float32{}
		vec := func(seed uint64) []float32 {
			rng := rand.New(rand.NewPCG(seed, 0))
			v := make([]float32, d)
			for i := range v {
				v[i] = float32(rng.IntN(5) - 2) // small integers: ties happen
			}
			return normalize(v)
		}
		vectors := func(id int32) []float32 { return model[id] }
		fill, fillSeed := rapid.IntRange(0, 40).Draw(t, "fill"), rapid.Uint64().Draw(t, "fill seed")
		for id := range int32(fill) {
			model[id] = vec(fillSeed + uint64(id))
			_ = ix.Add(id, model[id])
		}
		for range rapid.IntRange(1, 120).Draw(t, "ops") {
			switch rapid.IntRange(0, 9).Draw(t, "op") {
			default:
				id := rapid.Int32Range(0, 60).Draw(t, "id")
				v := vec(rapid.Uint64().Draw(t, "vector"))
				if err := ix.Add(id, v); err != nil {
					t.Fatal(err)
				}
				model[id] = v
			case 7, 8:
				id := rapid.Int32Range(0, 60).Draw(t, "id")
				ix.Remove(id)
				delete(model, id)
			case 9:
				shift := rapid.Int32Range(-3, 3).Draw(t, "shift")
				mod := rapid.Int32Range(2, 7).Draw(t, "mod")
				f := func(old int32) int32 {
					if old%mod == 0 {
						return -1
					}
					return old + shift // may go negative: dropped
				}
				ix.Renumber(f)
				next := map[int32][]float32{}
				for _, old := range slices.Sorted(mapsKeys(model)) {
					if id := f(old); id >= 0 {
						next[id] = model[old]
					}
				}
				model = next
			}
			if ix.Len() != len(model) {
				t.Fatalf("Len = %d, model has %d", ix.Len(), len(model))
			}
		}
		var m matrix
		m.d = d
		for id := range int32(70) {
			v, ok := model[id]
			if !ok {
				v = make([]float32, d) // absent ids: never returned, so never scored
			}
			m.x = append(m.x, v...)
		}
		if ix.cents != nil {
			trainedRuns.Add(1)
		}
		q := vec(rapid.Uint64().Draw(t, "query"))
		k := rapid.IntRange(1, 80).Draw(t, "k")
		for _, vs := range []Vectors{vectors, nil} {
			got := ix.Search(q, k, vs, nil)
			if hasDuplicate(got) {
				t.Fatalf("duplicate ids: %v", got)
			}
			for _, id := range got {
				if _, ok := model[id]; !ok {
					t.Fatalf("absent id %d returned: %v", id, got)
				}
			}
			if len(got) != min(k, len(model)) && ix.cents == nil {
				t.Fatalf("got %d ids, want %d", len(got), min(k, len(model)))
			}
			if vs != nil && ix.cents == nil {
				want := exactOver(model, q, k)
				if !slices.Equal(got, want) {
					t.Fatalf("Search = %v, exact = %v", got, want)
				}
			}
		}
	})
	t.Logf("%d runs ended trained", trainedRuns.Load())
}

var trainedRuns atomic.Int64

func mapsKeys(m map[int32][]float32) func(func(int32) bool) {
	return func(yield func(int32) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// exactOver is the oracle over a map of vectors.
func exactOver(model map[int32][]float32, q []float32, k int) []int32 {
	var top hits
	for id, v := range model {
		top = top.push(k, hit{id, dot(q, v)})
	}
	slices.SortFunc(top, func(a, b hit) int {
		if a.s != b.s {
			if a.s > b.s {
				return -1
			}
			return 1
		}
		return int(a.id - b.id)
	})
	return ids(top)
}

// TestDotsMatchGo: the AVX2 scan gives the integers of the plain loop, at
// every remainder of 16 and at the extremes of both ranges.
func TestDotsMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dim := range []int{1, 3, 15, 16, 17, 31, 32, 33, 64, 100, 228, 612} {
		const n = 9
		q := make([]int16, dim)
		codes := make([]int8, n*dim)
		top := int16(min(32767, math.MaxInt32/(127*dim)))
		for i := range q {
			q[i] = []int16{top, -top, int16(rng.IntN(2*int(top)+1)) - top}[rng.IntN(3)]
		}
		for i := range codes {
			codes[i] = []int8{127, -127, -128, int8(rng.IntN(255) - 127)}[rng.IntN(4)]
		}
		got, want := make([]int32, n), make([]int32, n)
		dots(q, codes, dim, got)
		dotsGo(q, codes, dim, want)
		if !slices.Equal(got, want) {
			t.Errorf("dim %d: dots = %v, want %v", dim, got, want)
		}
	}
}

// TestDeterministic: the same Adds in the same order give the same lists
// and the same answers.
func TestDeterministic(t *testing.T) {
	m := clustered(9000, 32, 7)
	a, b := build(t, m), build(t, m)
	if !reflect.DeepEqual(a.lists, b.lists) || !slices.Equal(a.cents, b.cents) {
		t.Fatal("two builds of the same vectors differ")
	}
	q := clustered(1, 32, 8).row(0)
	if x, y := a.Search(q, 20, nil, nil), b.Search(q, 20, nil, nil); !slices.Equal(x, y) {
		t.Errorf("Search: %v and %v", x, y)
	}
}

// TestConcurrentSearch: Searches from several goroutines answer as one
// alone does (run with -race).
func TestConcurrentSearch(t *testing.T) {
	m := clustered(6000, 32, 9)
	ix := build(t, m)
	qs := clustered(40, 32, 10)
	want := make([][]int32, qs.n())
	for i := range want {
		want[i] = ix.Search(qs.row(int32(i)), 10, m.vectors, nil)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			var dst []int32
			for i := range qs.n() {
				i := (i + g*7) % qs.n()
				if dst = ix.Search(qs.row(int32(i)), 10, m.vectors, dst); !slices.Equal(dst, want[i]) {
					t.Errorf("query %d: %v, alone %v", i, dst, want[i])
				}
			}
		})
	}
	wg.Wait()
}

func TestSearchAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	for _, n := range []int{1000, 6000} {
		m := clustered(n, 32, 11)
		ix := build(t, m)
		q := m.row(3)
		dst := make([]int32, 0, 64)
		for _, vs := range []Vectors{nil, m.vectors} {
			ix.Search(q, 64, vs, dst)
			if a := testing.AllocsPerRun(50, func() { dst = ix.Search(q, 64, vs, dst) }); a != 0 {
				t.Errorf("n=%d: %v allocations a Search", n, a)
			}
		}
	}
}

// TestBytesPerVector: the index holds about 140 bytes per 100-dimensional
// vector beyond the caller's float32 copy (doc.go).
func TestBytesPerVector(t *testing.T) {
	m := clustered(40000, 100, 12)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ix := build(t, m)
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / float64(m.n())
	t.Logf("%.1f bytes per vector", per)
	if per > 160 {
		t.Errorf("%.1f bytes per vector, want at most 160", per)
	}
	runtime.KeepAlive(ix)
	runtime.KeepAlive(m)
}
