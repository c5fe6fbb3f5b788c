package ann

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engram-go/engram/internal/glove"
)

// realTurns returns n lines of real dialogue and the questions asked of
// it, from the LoCoMo conversations ENGRAM_LOCOMO names (by default the
// development set beside the repository): the turns in order, then
// turns that join the first half of one real turn to the second half of
// another, as a memory that runs for months holds lines that are alike
// but not the same. It skips without the file.
func realTurns(tb testing.TB, n int) (turns, questions []string) {
	tb.Helper()
	path := os.Getenv("ENGRAM_LOCOMO")
	if path == "" {
		path = filepath.Join("..", "..", "..", "shared", "data", "locomo-dev.json")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		tb.Skipf("no LoCoMo conversations: %v", err)
	}
	var samples []struct {
		QA []struct {
			Question string `json:"question"`
		} `json:"qa"`
		Conversation map[string]json.RawMessage `json:"conversation"`
	}
	if err := json.Unmarshal(raw, &samples); err != nil {
		tb.Fatal(err)
	}
	var real []string
	for _, s := range samples {
		for i := 1; ; i++ {
			msg, ok := s.Conversation[fmt.Sprintf("session_%d", i)]
			if !ok {
				break
			}
			var session []struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(msg, &session); err != nil {
				tb.Fatal(err)
			}
			for _, t := range session {
				real = append(real, t.Text)
			}
		}
		for _, qa := range s.QA {
			questions = append(questions, qa.Question)
		}
	}
	for i := 0; len(turns) < n; i++ {
		if i < len(real) {
			turns = append(turns, real[i])
			continue
		}
		pass := i / len(real)
		a := strings.Fields(real[(i*7919)%len(real)])
		b := strings.Fields(real[(i*104729+13+pass*7)%len(real)])
		turns = append(turns, strings.Join(a[:(len(a)+1)/2], " ")+" "+strings.Join(b[len(b)/2:], " "))
	}
	return turns, questions
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
