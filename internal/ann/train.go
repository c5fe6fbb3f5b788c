package ann

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/viterin/vek/vek32"
)

// Training: spherical k-means (unit centroids, assignment by dot product)
// on a bounded sample of the index's own int8 copies, then every vector
// moves to its nearest new centroid among those nearest its old one.
const (
	// samplePerList bounds the k-means sample: this many vectors per list.
	samplePerList = 32
	// iterations of k-means.
	iterations = 8
	// reassignCands is how many new centroids, those nearest its old
	// centroid, a vector chooses among when the index retrains.
	reassignCands = 32
	// seed makes training deterministic.
	seed = 0x616e6e
)

// train rebuilds the lists around √n centroids.
func (ix *Index) train() {
	n, d := ix.Len(), ix.dim
	nlist := max(1, int(math.Round(float64(ix.perRoot)*math.Sqrt(float64(n)))))
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	cents := kmeans(ix.sample(nlist*samplePerList), d, nlist, rng)

	// Old centroid → the new centroids nearest it, to choose among.
	var near [][]int32
	if ix.cents != nil {
		near = make([][]int32, len(ix.lists))
		var h hits
		for l := range ix.lists {
			h = h[:0]
			for c := range nlist {
				h = h.push(reassignCands, hit{int32(c), vek32.Dot(cents[c*d:(c+1)*d], ix.cents[l*d:(l+1)*d])})
			}
			for _, x := range h {
				near[l] = append(near[l], x.id)
			}
		}
	}

	// Assign, then copy into lists of exact size.
	assign := make([][]int32, len(ix.lists))
	parallel(len(ix.lists), func(lo, hi int) {
		v := make([]float32, d)
		for l := lo; l < hi; l++ {
			ls := ix.lists[l]
			assign[l] = make([]int32, len(ls.ids))
			var cands []int32 // all, the first time
			if near != nil {
				cands = near[l]
			}
			for i := range ls.ids {
				decode(v, ls.codes[i*d:(i+1)*d], ls.scales[i])
				assign[l][i] = nearestAmong(cents, d, v, cands)
			}
		}
	})
	count := make([]int, nlist)
	for _, a := range assign {
		for _, c := range a {
			count[c]++
		}
	}
	lists := make([]list, nlist)
	for c := range lists {
		lists[c] = list{
			ids:    make([]int32, 0, count[c]),
			scales: make([]float32, 0, count[c]),
			codes:  make([]int8, 0, count[c]*d),
		}
	}
	for l, ls := range ix.lists {
		for i, id := range ls.ids {
			c := assign[l][i]
			nl := &lists[c]
			nl.ids = append(nl.ids, id)
			nl.scales = append(nl.scales, ls.scales[i])
			nl.codes = append(nl.codes, ls.codes[i*d:(i+1)*d]...)
			ix.where[id] = c
		}
		ix.lists[l] = list{} // free as we go
	}
	ix.lists, ix.cents = lists, cents
	ix.nextTrain = growth * n
}

// nearestAmong returns the centroid among cands (all if nil) with the
// largest dot product with v, the smaller index on a tie.
func nearestAmong(cents []float32, d int, v []float32, cands []int32) int32 {
	best, bs := int32(-1), float32(0)
	try := func(c int32) {
		if s := vek32.Dot(cents[int(c)*d:(int(c)+1)*d], v); best < 0 || s > bs || s == bs && c < best {
			best, bs = c, s
		}
	}
	if cands == nil {
		for c := range len(cents) / d {
			try(int32(c))
		}
	} else {
		for _, c := range cands {
			try(c)
		}
	}
	return best
}

// sample returns up to m of the index's vectors, decoded and normalised,
// row after row: every (n/m)-th in list order, so each list is represented
// by its share.
func (ix *Index) sample(m int) []float32 {
	n, d := ix.Len(), ix.dim
	m = min(m, n)
	out := make([]float32, 0, m*d)
	v := make([]float32, d)
	pos, next := 0, 0.0
	step := float64(n) / float64(m)
	for _, ls := range ix.lists {
		for i := range ls.ids {
			if float64(pos) >= next && len(out) < m*d {
				decode(v, ls.codes[i*d:(i+1)*d], ls.scales[i])
				out = append(out, normalize(v)...)
				next += step
			}
			pos++
		}
	}
	return out
}

// kmeans returns k unit centroids of the unit rows of x: spherical k-means
// from k distinct random rows, an emptied cluster reseeded from a random
// row.
func kmeans(x []float32, d, k int, rng *rand.Rand) []float32 {
	n := len(x) / d
	cents := make([]float32, k*d)
	for c, r := range rng.Perm(n)[:min(k, n)] {
		copy(cents[c*d:(c+1)*d], x[r*d:(r+1)*d])
	}
	assign := make([]int32, n)
	sum := make([]float64, k*d)
	count := make([]int, k)
	for range iterations {
		parallel(n, func(lo, hi int) {
			for r := lo; r < hi; r++ {
				assign[r] = nearestAmong(cents, d, x[r*d:(r+1)*d], nil)
			}
		})
		clear(sum)
		clear(count)
		for r, c := range assign {
			count[c]++
			s := sum[int(c)*d : (int(c)+1)*d]
			for j, y := range x[r*d : (r+1)*d] {
				s[j] += float64(y)
			}
		}
		for c := range k {
			v := cents[c*d : (c+1)*d]
			if count[c] == 0 {
				r := rng.IntN(n)
				copy(v, x[r*d:(r+1)*d])
				continue
			}
			for j := range v {
				v[j] = float32(sum[c*d+j])
			}
			normalize(v)
		}
	}
	return cents
}

// parallel calls f over [0, n) in one part per processor, at most one per
// 256, and returns when all are done. Training runs inside the Add that
// triggers it, under its owner's lock: the parts (each row assigned on its
// own) shorten that pause by the processors there are, the result the same.
func parallel(n int, f func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), n/256)
	if w <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for i := range w {
		wg.Go(func() { f(i*n/w, (i+1)*n/w) })
	}
	wg.Wait()
}

// normalize scales v to unit length in place (a zero v stays zero).
func normalize(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return v
	}
	inv := 1 / math.Sqrt(s)
	for i := range v {
		v[i] = float32(float64(v[i]) * inv)
	}
	return v
}
