package ann

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// benchSizes are the index sizes benchmarked; 1,000,000 (about a minute
// to set up: embedding, build, oracle) only without -short.
var benchSizes = []int{10_000, 100_000, 1_000_000}

// benchData is one size's vectors, queries, exact answers and built index,
// made once per process.
type benchData struct {
	m, qs matrix
	want  [][]hit
	ix    *Index
}

var (
	benchMu    sync.Mutex
	benchCache = map[int]*benchData{}
)

// load returns the data of size n: GloVe vectors of chat lines (text), 200
// queries of other lines, their exact 64 best, and an index of all
// (built lazily, when withIndex).
func load(b *testing.B, n int, withIndex bool) *benchData {
	b.Helper()
	if n >= 1_000_000 && testing.Short() {
		b.Skip("1,000,000 vectors: not with -short")
	}
	benchMu.Lock()
	defer benchMu.Unlock()
	d := benchCache[n]
	if d == nil {
		d = &benchData{m: text(n, 21), qs: text(200, 22)}
		d.want = make([][]hit, d.qs.n())
		for i := range d.want {
			d.want[i] = oracle(d.m, d.qs.row(int32(i)), 64)
		}
		benchCache[n] = d
	}
	if withIndex && d.ix == nil {
		d.ix = build(b, d.m)
	}
	return d
}

// BenchmarkAdd builds an index of n vectors per iteration, retrainings
// included: µs/add is the amortised cost of an Add, B/vec the heap the
// index holds.
func BenchmarkAdd(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			d := load(b, n, false)
			var before, after runtime.MemStats
			var ix *Index
			for b.Loop() {
				runtime.GC()
				runtime.ReadMemStats(&before)
				ix = build(b, d.m)
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/add")
			runtime.GC()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(n), "B/vec")
			runtime.KeepAlive(ix)
		})
	}
}

// BenchmarkSearch compares the index (k = 64, with the exact re-rank and
// from the int8 codes alone) with an exact scan of all vectors, reporting
// the median query time and recall@64.
func BenchmarkSearch(b *testing.B) {
	for _, n := range benchSizes {
		for _, method := range []string{"ivf", "ivf-int8", "exact"} {
			b.Run(fmt.Sprintf("n=%d/%s", n, method), func(b *testing.B) {
				d := load(b, n, method != "exact")
				search := func(q []float32, dst []int32) []int32 {
					switch method {
					case "ivf":
						return d.ix.Search(q, 64, d.m.vectors, dst)
					case "ivf-int8":
						return d.ix.Search(q, 64, nil, dst)
					}
					return append(dst[:0], ids(oracle(d.m, q, 64))...)
				}
				var dst []int32
				var sum float64
				for i := range d.qs.n() {
					q := d.qs.row(int32(i))
					dst = search(q, dst)
					sum += recall(d.m, q, d.want[i], dst)
				}
				times := make([]time.Duration, 0, 1024)
				i := 0
				for b.Loop() {
					q := d.qs.row(int32(i % d.qs.n()))
					t := time.Now()
					dst = search(q, dst)
					times = append(times, time.Since(t))
					i++
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Nanoseconds())/1e3, "p50-µs")
				b.ReportMetric(sum/float64(d.qs.n()), "recall@64")
			})
		}
	}
}
