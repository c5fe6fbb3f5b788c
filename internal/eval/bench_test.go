package eval

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/engram-go/engram/internal/dataset"
)

// BenchmarkLoadRealDialogue replays the development set's 629-turn
// conversation (conv-42) into each memory at 1,024 tokens and times a load
// per question, side by side, as issue 12 measures it: engram's loads may
// take at most twice stemmed BM25's. Run it with
//
//	go test ./internal/eval -run '^$' -bench LoadRealDialogue -benchtime 2000x
//
// It skips without the development set (ENGRAM_LOCOMO or
// ../shared/data/locomo-dev.json).
func BenchmarkLoadRealDialogue(b *testing.B) {
	path := os.Getenv("ENGRAM_LOCOMO")
	if path == "" {
		path = filepath.Join("..", "..", "..", "shared", "data", "locomo-dev.json")
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
	perOp := make(map[string]float64)
	for _, m := range ms {
		b.Run(m.Name, func(b *testing.B) {
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
			var qs []string
			for _, qa := range s.QA {
				qs = append(qs, qa.Question)
			}
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if _, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": qs[i%len(qs)]}); err != nil {
					b.Fatal(err)
				}
			}
			perOp[m.Name] = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			if m.Name != "bm25" && perOp["bm25"] > 0 && b.N >= 50 {
				ratio := perOp[m.Name] / perOp["bm25"]
				b.ReportMetric(ratio, "×bm25")
				if ratio > 2 {
					b.Errorf("%s loads take %.2f× stemmed BM25's, over the target of 2×", m.Name, ratio)
				}
			}
		})
	}
}
