package ann

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/engram-go/engram/internal/devset"
	"github.com/engram-go/engram/internal/glove"
)

// realTurns returns n lines of real dialogue and the questions asked of
// it, from the LoCoMo conversations ENGRAM_LOCOMO names (by default the
// development set beside the repository), grown as a memory that runs for
// months grows (devset.Grow). It skips without the file.
func realTurns(tb testing.TB, n int) (turns, questions []string) {
	tb.Helper()
	turns, qs, err := devset.Read(devset.Path(2))
	if errors.Is(err, devset.ErrNoFile) {
		tb.Skipf("no LoCoMo conversations: %v", err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	for _, q := range qs {
		questions = append(questions, q.Text)
	}
	return devset.Grow(turns, n), questions
}

// embedAll returns the GloVe sentence vectors of lines, one row each.
func embedAll(lines []string) matrix {
	m := matrix{glove.Dim, make([]float32, 0, len(lines)*glove.Dim)}
	for _, s := range lines {
		m.x = glove.Embed(m.x, s)
	}
	return m
}

// BenchmarkSearchRealTurns measures the index on real dialogue grown to
// 100,000 turns (realTurns), asked the conversations' own questions for
// the 128 nearest (what a load at 1,024 tokens gathers): median query
// time, recall against an exact scan, and the amortised cost of an Add,
// for several counts of lists per √n and of lists probed, side by side in
// one run. Run it with
//
//	go test ./internal/ann -run '^$' -bench SearchRealTurns -benchtime 1x
func BenchmarkSearchRealTurns(b *testing.B) {
	const n, k, asked = 100_000, 128, 300
	turns, questions := realTurns(b, n)
	m := embedAll(turns)
	qs := embedAll(questions)
	step := max(1, qs.n()/asked)
	var want [][]hit
	for i := 0; i < qs.n(); i += step {
		want = append(want, oracle(m, qs.row(int32(i)), k))
	}
	for _, cfg := range []struct{ perRoot, probes int }{{1, 64}, {1, 48}, {1, 32}, {2, 64}, {2, 48}, {2, 32}} {
		b.Run(fmt.Sprintf("lists=%d√n/probes=%d", cfg.perRoot, cfg.probes), func(b *testing.B) {
			for b.Loop() {
				ix := New(m.d)
				ix.perRoot, ix.probes = cfg.perRoot, cfg.probes
				start := time.Now()
				for i := range m.n() {
					if err := ix.Add(int32(i), m.row(int32(i))); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(time.Since(start).Microseconds())/float64(m.n()), "µs/add")
				var sum float64
				var times []time.Duration
				var dst []int32
				for j, w := range want {
					q := qs.row(int32(j * step))
					t := time.Now()
					dst = ix.Search(q, k, m.vectors, dst)
					times = append(times, time.Since(t))
					sum += recall(m, q, w, dst)
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Nanoseconds())/1e3, "p50-µs")
				b.ReportMetric(sum/float64(len(want)), "recall@128")
			}
		})
	}
}
