package eval

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/engram-go/engram/cmd/memeval/dataset"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/option"
	"github.com/tmc/langchaingo/schema"
)

// BenchmarkUnitsAtScale fills an in-memory dmem, uncapped, with a million
// units of real dialogue (scaleTurns, added as documents, which bypass the
// gate: by SaveContext the gate keeps about one turn in nine past 10,000
// turns) and times loads at 1,024 tokens on the development set's
// questions. It reports the fill's minutes and its cost a unit over the
// last tenth, and the load's median and 90th percentile, and fails where a
// target is missed: the fill within 10 minutes, the median load within
// 20 ms. ENGRAM_UNITS sets the size (default 1,000,000; the fill holds
// about 3.5 GB). Run it with
//
//	go test ./cmd/memeval/eval -run '^$' -bench UnitsAtScale -benchtime 1x -timeout 60m
func BenchmarkUnitsAtScale(b *testing.B) {
	ss, err := dataset.ReadFile(devPath())
	if err != nil {
		b.Skipf("no development set: %v", err)
	}
	n := 1_000_000
	if v := os.Getenv("ENGRAM_UNITS"); v != "" {
		if n, err = strconv.Atoi(v); err != nil || n <= 0 {
			b.Fatalf("ENGRAM_UNITS: %q", v)
		}
	}
	var qs []string
	for i := range ss {
		for _, qa := range ss[i].QA {
			qs = append(qs, qa.Question)
		}
	}
	turns := scaleTurns(ss, n)
	ctx := context.Background()
	const batch, loads = 64, 200
	for b.Loop() {
		m, err := dmem.New(ctx, option.WithTokenBudget(1024), option.WithMaxUnits(0))
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		var tail time.Time // the fill's last tenth
		docs := make([]schema.Document, 0, batch)
		for i := 0; i < n; i += batch {
			if tail.IsZero() && i >= n-n/10 {
				tail = time.Now()
			}
			docs = docs[:0]
			for _, s := range turns[i:min(n, i+batch)] {
				docs = append(docs, schema.Document{PageContent: s})
			}
			if _, err := m.AddDocuments(ctx, docs); err != nil {
				b.Fatal(err)
			}
		}
		end := time.Now()
		fill := end.Sub(start)
		if got := m.Stats().Core; got != n {
			b.Fatalf("%d units held of %d added", got, n)
		}
		ds := make([]time.Duration, 0, loads)
		for i := range loads {
			in := map[string]any{"input": qs[(i*31)%len(qs)]}
			start := time.Now()
			if _, err := m.LoadMemoryVariables(ctx, in); err != nil {
				b.Fatal(err)
			}
			ds = append(ds, time.Since(start))
		}
		slices.Sort(ds)
		p50, p90 := ds[len(ds)/2], ds[len(ds)*9/10]
		b.ReportMetric(fill.Minutes(), fmt.Sprintf("%d-fill-min", n))
		b.ReportMetric(float64(end.Sub(tail).Microseconds())/float64(n-n/10*9), "µs/unit-last-tenth")
		b.ReportMetric(float64(p50.Microseconds())/1000, fmt.Sprintf("%d-ms/load-p50", n))
		b.ReportMetric(float64(p90.Microseconds())/1000, fmt.Sprintf("%d-ms/load-p90", n))
		if n >= 1_000_000 && fill > 10*time.Minute {
			b.Errorf("filling %d units took %v, over the target of 10 minutes", n, fill.Round(time.Second))
		}
		if n >= 1_000_000 && p50 > 20*time.Millisecond {
			b.Errorf("loads over %d units take %v at the median, over the target of 20 ms", n, p50.Round(100*time.Microsecond))
		}
		if err := m.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
