package ratedistortion

import (
	"context"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engram-go/engram/option"
	"github.com/tmc/langchaingo/memory"
	"github.com/tmc/langchaingo/schema"
)

// benchTurns returns n varied turns: a vocabulary of 2,000 words in
// sentences of 8 to 30 words, so that texts and their token counts differ.
func benchTurns(n int) []string {
	r := rand.New(rand.NewPCG(21, 22))
	vocab := make([]string, 2000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%x%c", i*7919%65521, 'a'+rune(i%26))
	}
	out := make([]string, n)
	for i := range out {
		ws := make([]string, 8+r.IntN(23))
		for j := range ws {
			ws[j] = vocab[int(r.ExpFloat64()*300)%len(vocab)]
		}
		out[i] = strings.Join(ws, " ") + "."
	}
	return out
}

const benchBudget = 2048

// loadTargets are the largest acceptable load times, by pool size.
var loadTargets = map[int]time.Duration{1000: time.Millisecond, 10000: 10 * time.Millisecond}

func fill(b *testing.B, m schema.Memory, turns []string) {
	ctx := context.Background()
	for i := 0; i+1 < len(turns); i += 2 {
		if err := m.SaveContext(ctx, map[string]any{"input": turns[i]}, map[string]any{"output": turns[i+1]}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad compares LoadMemoryVariables with langchaingo's
// ConversationTokenBuffer at the same budget, pools of 100, 1k and 10k units.
func BenchmarkLoad(b *testing.B) {
	log.SetOutput(io.Discard) // langchaingo logs a warning per token count
	for _, n := range []int{100, 1000, 10000} {
		turns := benchTurns(n)
		queries := benchTurns(64)
		b.Run(fmt.Sprintf("engram/units=%d", n), func(b *testing.B) {
			m, err := New(option.WithTokenBudget(benchBudget))
			if err != nil {
				b.Fatal(err)
			}
			fill(b, m, turns)
			ctx := context.Background()
			i := 0
			for b.Loop() {
				if _, err := m.LoadMemoryVariables(ctx, map[string]any{"input": queries[i%len(queries)]}); err != nil {
					b.Fatal(err)
				}
				i++
			}
			// The load-time targets; with few iterations warming up dominates.
			perOp := b.Elapsed() / time.Duration(b.N)
			if target, ok := loadTargets[n]; ok && b.N >= 50 && perOp > target {
				b.Errorf("LoadMemoryVariables over %d units takes %v; the target is %v", n, perOp, target)
			}
		})
		b.Run(fmt.Sprintf("langchaingo/units=%d", n), func(b *testing.B) {
			m := memory.NewConversationTokenBuffer(nil, benchBudget)
			fill(b, m, turns)
			ctx := context.Background()
			for b.Loop() {
				if _, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "q"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSave measures one SaveContext (a pair of units) into pools of
// growing size: flat costs mean the history is never re-counted.
func BenchmarkSave(b *testing.B) {
	log.SetOutput(io.Discard)
	perSave := map[int]float64{} // ns a save, by pool size
	defer func() {
		// A save costs the same at every pool size, repeats included (the
		// saves cycle through 512 turns): counted and embedded once,
		// nothing recounted or reindexed.
		if small, large := perSave[100], perSave[10000]; small > 0 && large > 5*small {
			b.Errorf("a save takes %.0f µs at 10,000 units, %.0f µs at 100: it grows with the pool", large/1e3, small/1e3)
		}
	}()
	for _, n := range []int{100, 1000, 10000} {
		turns := benchTurns(n)
		extra := benchTurns(512)
		ctx := context.Background()
		b.Run(fmt.Sprintf("engram/units=%d", n), func(b *testing.B) {
			m, err := New(option.WithTokenBudget(benchBudget))
			if err != nil {
				b.Fatal(err)
			}
			fill(b, m, turns)
			i := 0
			start := time.Now()
			for b.Loop() {
				in := map[string]any{"input": extra[i%len(extra)]}
				if err := m.SaveContext(ctx, in, map[string]any{"output": extra[(i+1)%len(extra)]}); err != nil {
					b.Fatal(err)
				}
				i++
			}
			if i >= 1000 {
				perSave[n] = float64(time.Since(start).Nanoseconds()) / float64(i)
			}
		})
		b.Run(fmt.Sprintf("langchaingo/units=%d", n), func(b *testing.B) {
			m := memory.NewConversationTokenBuffer(nil, benchBudget)
			fill(b, m, turns)
			i := 0
			for b.Loop() {
				in := map[string]any{"input": extra[i%len(extra)]}
				if err := m.SaveContext(ctx, in, map[string]any{"output": extra[(i+1)%len(extra)]}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkReward measures a rating of the latest load over a pool of
// 3,000 units, the load itself untimed; it reports the median and fails
// above 50 µs once it has run 50 ratings.
func BenchmarkReward(b *testing.B) {
	ctx := context.Background()
	turns := benchTurns(3000)
	m, err := New(option.WithTokenBudget(1024))
	if err != nil {
		b.Fatal(err)
	}
	fill(b, m, turns)
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		if _, err := m.LoadMemoryVariables(ctx, map[string]any{"input": turns[(i*37)%len(turns)]}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		if err := m.Reward(ctx, float64(i%3)-1); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(start))
	}
	slices.Sort(ds)
	p50 := ds[len(ds)/2]
	b.ReportMetric(float64(p50.Nanoseconds())/1e3, "p50-µs")
	if len(ds) >= 50 && p50 > 50*time.Microsecond {
		b.Errorf("Reward over 3,000 units: p50 %v; the target is 50µs", p50)
	}
}

// largeText returns a message of about n bytes: varied words and
// sentences, or CJK text with no spaces.
func largeText(n int, cjk bool) string {
	r := rand.New(rand.NewPCG(31, 32))
	var sb strings.Builder
	for sb.Len() < n {
		if cjk {
			for range 20 {
				sb.WriteRune(rune(0x4e00 + r.IntN(2000)))
			}
			sb.WriteString("。")
			continue
		}
		fmt.Fprintf(&sb, "Word%d went to Lisbon on %d May with %x. ", r.IntN(50000), 1+r.IntN(28), r.Uint32())
	}
	return sb.String()
}

// BenchmarkSaveLarge measures one SaveContext of one large message, of
// words or of CJK text: the cost grows linearly with its size (only its
// first text.MaxAnalysed bytes are analysed; its tokens are counted
// whole), and a message of 5 MiB is saved within a second.
func BenchmarkSaveLarge(b *testing.B) {
	log.SetOutput(io.Discard)
	ctx := context.Background()
	// The embedded word vectors and token ranks are decoded on first use,
	// once per process: not a cost of any one save.
	fill(b, newBuffer(b), []string{"Omar lives in Lisbon.", "Nice."})
	for _, kind := range []string{"words", "cjk"} {
		for _, size := range []int{1 << 20, 5 << 20} {
			msg := largeText(size, kind == "cjk")
			b.Run(fmt.Sprintf("%s/MiB=%d", kind, size>>20), func(b *testing.B) {
				for b.Loop() {
					m, err := New(option.WithTokenBudget(benchBudget))
					if err != nil {
						b.Fatal(err)
					}
					if err := m.SaveContext(ctx, map[string]any{"input": msg}, map[string]any{"output": "ok"}); err != nil {
						b.Fatal(err)
					}
				}
				if per := b.Elapsed() / time.Duration(b.N); size >= 5<<20 && per > time.Second {
					b.Errorf("a save of %d MiB took %v, want at most 1s", size>>20, per)
				}
			})
		}
	}
}
