package eval

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/cmd/memeval/dataset"
	"github.com/tmc/langchaingo/schema"
)

// liveHeap returns the bytes of live heap after two collections.
func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkHeapPerTurn fills each memory with real turns (scaleTurns:
// 10,000 unless ENGRAM_HEAP_TURNS says otherwise) at its default options
// and reports the live heap it holds per 1,000 turns, in MiB, and per unit
// it keeps: what the memory adds, not the tables (tokenizer, GloVe,
// WordNet) a process loads once for all its memories. It fails for a
// memory over 1.5 MiB per 1,000 turns. Run it with
//
//	go test ./cmd/memeval/eval -run '^$' -bench HeapPerTurn -benchtime 1x
func BenchmarkHeapPerTurn(b *testing.B) {
	ss, err := dataset.ReadFile(devPath())
	if err != nil {
		b.Skipf("no development set: %v", err)
	}
	n := 10000
	if v := os.Getenv("ENGRAM_HEAP_TURNS"); v != "" {
		if n, err = strconv.Atoi(v); err != nil || n <= 0 {
			b.Fatalf("ENGRAM_HEAP_TURNS: %q", v)
		}
	}
	ms, err := Select(Known(), "bm25,rd,dmem")
	if err != nil {
		b.Fatal(err)
	}
	turns := scaleTurns(ss, n)
	ctx := context.Background()
	// The tables every memory shares (the tokenizer's, GloVe's, WordNet's)
	// load once a process, on first use: warm them before measuring.
	for _, m := range ms {
		mem, err := m.New(ctx, 1024, nil)
		if err != nil {
			b.Fatal(err)
		}
		fill(b, mem, turns[:64])
		if _, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": ss[0].QA[0].Question}); err != nil {
			b.Fatal(err)
		}
		if m.Close != nil {
			m.Close(mem)
		}
	}
	for b.Loop() {
		for _, m := range ms {
			before := liveHeap()
			mem, err := m.New(ctx, 1024, nil)
			if err != nil {
				b.Fatal(err)
			}
			fill(b, mem, turns)
			if _, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": ss[0].QA[0].Question}); err != nil {
				b.Fatal(err)
			}
			held := float64(liveHeap()) - float64(before)
			mib := held / (1 << 20) / (float64(n) / 1000)
			b.ReportMetric(mib, m.Name+"-MiB/1k-turns")
			if m.Name != "bm25" && mib > 1.5 {
				b.Errorf("%s holds %.2f MiB per 1,000 turns, over the target of 1.5", m.Name, mib)
			}
			if u, ok := units(mem); ok && u > 0 {
				b.ReportMetric(held/float64(u), m.Name+"-B/unit")
			}
			runtime.KeepAlive(mem)
			if m.Close != nil {
				m.Close(mem)
			}
		}
	}
}

// fill saves turns into mem in pairs.
func fill(b *testing.B, mem schema.Memory, turns []string) {
	b.Helper()
	for i := 0; i+1 < len(turns); i += 2 {
		if err := mem.SaveContext(context.Background(), map[string]any{"input": turns[i]}, map[string]any{"output": turns[i+1]}); err != nil {
			b.Fatal(err)
		}
	}
}

// units returns how many units mem holds, if it says.
func units(mem schema.Memory) (int, bool) {
	switch x := mem.(type) {
	case interface{ Units() []engram.Unit }:
		return len(x.Units()), true
	case interface{ Len() int }:
		return x.Len(), true
	}
	return 0, false
}
