package eval

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/engram-go/engram/cmd/memeval/dataset"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/internal/devset"
	"github.com/engram-go/engram/option"
	"github.com/tmc/langchaingo/schema"
)

// scaleTurns returns n turns of real dialogue: the development set's turns
// in order, then, past them, turns that join the first half of one real
// turn to the second half of another, so that no two repeat and nothing
// merges away. The pair of halves moves on with every pass over the real
// turns: were it to come round again, only the counter at the end would
// tell two turns apart, and word vectors do not see it (100,000 turns
// held 5,503 distinct GloVe vectors).
func scaleTurns(ss []dataset.Sample, n int) []string {
	var real []string
	for i := range ss {
		for _, t := range ss[i].Turns() {
			real = append(real, turnText(t))
		}
	}
	return devset.Grow(real, n)
}

// loadTargets is the most a memory's load may take, as a multiple of
// BM25's over the same turns.
var loadTargets = map[string]float64{"rd": 2, "dmem": 2, "dmem-bolt": 3}

// BenchmarkLoadAtScale fills stemmed BM25 over an inverted index and
// engram's backends with 10,000 and 100,000 turns of real dialogue
// (scaleTurns) and times loads at 1,024 tokens, the memories taking turns
// on each of the development set's questions. It reports each memory's
// median load, its ratio to BM25's, and the exponent of its growth from the
// smaller size to the larger (1 is linear). It fails where a target is
// missed: loads within 2× BM25's in memory and 3× on bbolt, growing with an
// exponent of 0.5 or less, saves within 100 µs a turn at 100,000 turns. Sizes are ENGRAM_SCALE, comma-
// separated (default 10000,100000); memories ENGRAM_SCALE_MEMORIES (default
// rd,dmem; dmem-all is dmem holding every turn, WithMaxUnits(0); dmem-bolt
// is dmem in the embedded bbolt store, WithPath; chromem is chromem-go
// queried raw for the 128 turns nearest by the offline embedder's
// vectors, packed into the budget). Run it with
//
//	go test ./cmd/memeval/eval -run '^$' -bench LoadAtScale -benchtime 1x -timeout 60m
func BenchmarkLoadAtScale(b *testing.B) {
	ss, err := dataset.ReadFile(devPath())
	if err != nil {
		b.Skipf("no development set: %v", err)
	}
	sizes := []int{10000, 100000}
	if v := os.Getenv("ENGRAM_SCALE"); v != "" {
		sizes = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n <= 0 {
				b.Fatalf("ENGRAM_SCALE: %q", f)
			}
			sizes = append(sizes, n)
		}
	}
	names := "rd,dmem"
	if v := os.Getenv("ENGRAM_SCALE_MEMORIES"); v != "" {
		names = v
	}
	uncapped := Memory{Name: "dmem-all", Engram: true, New: func(ctx context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
		return dmem.New(ctx, option.WithTokenBudget(budget), option.WithMaxUnits(0))
	}, Close: func(m schema.Memory) error { return m.(*dmem.Memory).Close() }}
	// The durable memory syncs once a second while it fills (a save's
	// fsync is not what is measured here); its loads read the store.
	durable := Memory{Name: "dmem-bolt", Engram: true, New: func(ctx context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
		return dmem.New(ctx, option.WithTokenBudget(budget), dmem.WithPath(b.TempDir()), dmem.WithSyncEvery(time.Second))
	}, Close: func(m schema.Memory) error { return m.(*dmem.Memory).Close() }}
	// chromem-go queried raw, by the offline embedder's vectors alone.
	raw := Memory{Name: "chromem", New: func(_ context.Context, budget int, _ *dataset.Sample) (schema.Memory, error) {
		return newChromem(budget)
	}}
	ms, err := Select(append(Known(), uncapped, durable, raw), "bm25,"+names)
	if err != nil {
		b.Fatal(err)
	}
	var qs []string
	for i := range ss {
		for _, qa := range ss[i].QA {
			qs = append(qs, qa.Question)
		}
	}
	ctx := context.Background()
	// Every question of the development set once: 31 is prime to 760.
	const loads = 760
	p50 := make(map[string][]time.Duration) // by memory, by size
	for b.Loop() {
		for _, n := range sizes {
			turns := scaleTurns(ss, n)
			mems := make([]schema.Memory, len(ms))
			for k, m := range ms {
				mem, err := m.New(ctx, 1024, nil)
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				for i := 0; i+1 < len(turns); i += 2 {
					if err := mem.SaveContext(ctx, map[string]any{"input": turns[i]}, map[string]any{"output": turns[i+1]}); err != nil {
						b.Fatal(err)
					}
				}
				perSave := float64(time.Since(start).Microseconds()) / float64(n)
				b.ReportMetric(perSave, fmt.Sprintf("%s-%d-µs/save", m.Name, n))
				if n >= 100000 && perSave > 100 && (m.Name == "rd" || m.Name == "dmem") && os.Getenv("NOFAIL") == "" {
					b.Errorf("%s saves take %.0f µs a turn at %d turns, over the target of 100", m.Name, perSave, n)
				}
				switch x := mem.(type) {
				case *dmem.Memory:
					st := x.Stats()
					b.ReportMetric(float64(st.Core+st.Short), fmt.Sprintf("%s-%d-units", m.Name, n))
				case interface{ Len() int }:
					b.ReportMetric(float64(x.Len()), fmt.Sprintf("%s-%d-units", m.Name, n))
				}
				mems[k] = mem
			}
			spent := make([][]time.Duration, len(ms))
			for i := range loads {
				in := map[string]any{"input": qs[(i*31)%len(qs)]}
				for k, mem := range mems {
					start := time.Now()
					if _, err := mem.LoadMemoryVariables(ctx, in); err != nil {
						b.Fatal(err)
					}
					spent[k] = append(spent[k], time.Since(start))
				}
			}
			for k, m := range ms {
				slices.Sort(spent[k])
				med := spent[k][len(spent[k])/2]
				p50[m.Name] = append(p50[m.Name], med)
				b.ReportMetric(float64(med.Microseconds()), fmt.Sprintf("%s-%d-µs/load", m.Name, n))
				if k > 0 {
					ratio := float64(med) / float64(p50["bm25"][len(p50["bm25"])-1])
					b.ReportMetric(ratio, fmt.Sprintf("%s-%d-×bm25", m.Name, n))
					if limit, ok := loadTargets[m.Name]; ok && ratio > limit && os.Getenv("NOFAIL") == "" {
						b.Errorf("%s loads take %.2f× BM25's at %d turns, over the target of %g×", m.Name, ratio, n, limit)
					}
				}
				if m.Close != nil {
					m.Close(mems[k])
				}
			}
		}
	}
	if len(sizes) >= 2 {
		for _, m := range ms {
			ts := p50[m.Name]
			first, last := ts[0], ts[len(ts)-1]
			e := math.Log(float64(last)/float64(first)) / math.Log(float64(sizes[len(sizes)-1])/float64(sizes[0]))
			b.ReportMetric(e, m.Name+"-growth")
			if _, ok := loadTargets[m.Name]; ok && e > 0.5 && os.Getenv("NOFAIL") == "" {
				b.Errorf("%s load grows with exponent %.2f, over the target of 0.5", m.Name, e)
			}
		}
	}
}

// The grown turns stay distinct without their counter, which word vectors
// do not see: else a scale benchmark would search mostly copies.
func TestScaleTurnsDistinct(t *testing.T) {
	ss, err := dataset.ReadFile(devPath())
	if err != nil {
		t.Skipf("no development set: %v", err)
	}
	turns := scaleTurns(ss, 30000)
	seen := make(map[string]bool, len(turns))
	for _, s := range turns {
		if i := strings.LastIndex(s, " ("); i >= 0 && strings.HasSuffix(s, ")") {
			s = s[:i]
		}
		seen[s] = true
	}
	if len(seen) < len(turns)*99/100 {
		t.Fatalf("%d distinct turns of %d once their counters are cut", len(seen), len(turns))
	}
}
