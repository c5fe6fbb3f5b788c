package eval

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/engram-go/engram/cmd/memeval/dataset"
	"github.com/tmc/langchaingo/schema"
)

// BenchmarkLoadRealDialogue replays the development set's 629-turn
// conversation (conv-42) into each memory at 1,024 tokens and times a load
// per question, the three taking turns, the save-then-ask protocol: engram's
// loads may take at most twice stemmed BM25's. Run it with
//
//	go test ./cmd/memeval/eval -run '^$' -bench LoadRealDialogue -benchtime 2000x
//
// It skips without the development set (ENGRAM_LOCOMO or
// ../shared/data/locomo-dev.json).
func BenchmarkLoadRealDialogue(b *testing.B) {
	path := os.Getenv("ENGRAM_LOCOMO")
	if path == "" {
		path = filepath.Join("..", "..", "..", "..", "shared", "data", "locomo-dev.json")
	}
	ss, err := dataset.ReadFile(path)
	if err != nil {
		b.Skipf("no development set: %v", err)
	}
	var s *dataset.Sample
	for i := range ss {
		if ss[i].ID == "conv-42" {
			s = &ss[i]
		}
	}
	if s == nil {
		b.Skip("no conv-42 in the development set")
	}
	ms, err := Select(All(), "bm25,rd,dmem")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	mems := make([]schema.Memory, len(ms))
	for k, m := range ms {
		mem, err := m.New(ctx, 1024, s)
		if err != nil {
			b.Fatal(err)
		}
		if m.Close != nil {
			defer m.Close(mem)
		}
		for _, p := range Pairs(s) {
			if err := mem.SaveContext(ctx, map[string]any{"input": p[0]}, map[string]any{"output": p[1]}); err != nil {
				b.Fatal(err)
			}
		}
		mems[k] = mem
	}
	var qs []string
	for _, qa := range s.QA {
		qs = append(qs, qa.Question)
	}
	// The memories take turns on each question, so that a machine whose
	// load drifts slows them alike and the ratios hold.
	spent := make([]time.Duration, len(ms))
	for i := 0; b.Loop(); i++ {
		in := map[string]any{"input": qs[i%len(qs)]}
		for k, mem := range mems {
			start := time.Now()
			if _, err := mem.LoadMemoryVariables(ctx, in); err != nil {
				b.Fatal(err)
			}
			spent[k] += time.Since(start)
		}
	}
	for k, m := range ms {
		b.ReportMetric(float64(spent[k].Nanoseconds())/float64(b.N), m.Name+"-ns/load")
		if k == 0 {
			continue
		}
		ratio := float64(spent[k]) / float64(spent[0])
		b.ReportMetric(ratio, m.Name+"×bm25")
		if ratio > 2 && b.N >= 50 {
			b.Errorf("%s loads take %.2f× stemmed BM25's, over the target of 2×", m.Name, ratio)
		}
	}
}
