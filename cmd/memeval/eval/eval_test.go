package eval

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"log"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/engram-go/engram/cmd/memeval/dataset"
)

// TestOrdering is the evaluation's regression guard: on a small generated
// set at 1,024 tokens, the oracle bounds everything, engram's best memory
// is at least the BM25 retriever, and BM25 beats the newest-first buffer.
func TestOrdering(t *testing.T) {
	if testing.Short() {
		t.Skip("replays several long conversations")
	}
	log.SetOutput(io.Discard) // langchaingo's token buffer warns on every count
	t.Cleanup(func() { log.SetOutput(testWriter{t}) })
	cfg := dataset.DefaultGenConfig()
	cfg.Samples = 3
	ss, err := dataset.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	const budget = 1024
	rs, err := Run(context.Background(), ss, Config{Budgets: []int{budget}, Memories: All()})
	if err != nil {
		t.Fatal(err)
	}
	recall := func(name string) float64 {
		r, ok := Find(rs, name, budget)
		if !ok {
			t.Fatalf("no result for %s", name)
		}
		if r.OverBudget > 0 && (name == "rd" || name == "dmem" || name == "bm25" || name == "oracle") {
			t.Errorf("%s went over budget on %.1f%% of answers", name, 100*r.OverBudget)
		}
		return r.Recall
	}
	best, bestName := 0.0, ""
	for _, m := range Engram() {
		if r := recall(m.Name); r > best {
			best, bestName = r, m.Name
		}
	}
	oracle, bm25, token := recall("oracle"), recall("bm25"), recall("token")
	t.Logf("recall at %d tokens: oracle %.3f, engram best (%s) %.3f, bm25 %.3f, newest-first %.3f", budget, oracle, bestName, best, bm25, token)
	if !(oracle >= best && best >= bm25 && bm25 > token) {
		t.Fatalf("want oracle ≥ engram best ≥ bm25 > newest-first; got %.3f, %.3f, %.3f, %.3f", oracle, best, bm25, token)
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }

func TestSelect(t *testing.T) {
	ms, err := Select(All(), "bm25, rd")
	if err != nil || len(ms) != 2 || ms[0].Name != "bm25" || ms[1].Name != "rd" {
		t.Fatalf("Select = %v, %v", ms, err)
	}
	if _, err := Select(All(), "nope"); err == nil {
		t.Fatal("unknown memory accepted")
	}
}

func TestOracleAndBM25RespectBudget(t *testing.T) {
	cfg := dataset.DefaultGenConfig()
	cfg.Samples, cfg.Sessions = 1, 3
	ss, err := dataset.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Run(context.Background(), ss, Config{Budgets: []int{64, 300}, Memories: Baselines()[:2]})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.OverBudget != 0 || r.MeanTokens > float64(r.Budget) {
			t.Errorf("%s at %d: %.0f tokens on average, %.1f%% over", r.Memory, r.Budget, r.MeanTokens, 100*r.OverBudget)
		}
	}
}

// TestCalibration holds the generator to the README's claim: on the default
// set the baselines land near their published LoCoMo figures, and
// langchaingo's token buffer, which counts with another encoding, goes over
// a cl100k budget.
func TestCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("replays five long conversations")
	}
	log.SetOutput(io.Discard)
	t.Cleanup(func() { log.SetOutput(testWriter{t}) })
	cfg := dataset.DefaultGenConfig()
	cfg.Samples = 5
	ss, err := dataset.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := Select(Baselines(), "bm25,token")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Run(context.Background(), ss, Config{Budgets: []int{1024, 2048, 4096}, Memories: ms})
	if err != nil {
		t.Fatal(err)
	}
	published := map[string][3]float64{"bm25": {0.69, 0.74, 0.79}, "token": {0.05, 0.10, 0.21}}
	for name, want := range published {
		for i, budget := range []int{1024, 2048, 4096} {
			r, _ := Find(rs, name, budget)
			if d := r.Recall - want[i]; d > 0.05 || d < -0.05 {
				t.Errorf("%s at %d: recall %.3f, published %.2f", name, budget, r.Recall, want[i])
			}
		}
	}
	if r, _ := Find(rs, "token", 1024); r.OverBudget == 0 {
		t.Errorf("langchaingo's token buffer never went over a cl100k budget")
	}
}

// TestRealDialogue holds engram's backends, on the real development
// conversations (LoCoMo's first five; ENGRAM_LOCOMO names the file, by
// default ../shared/data/locomo-dev.json beside the repository), to
// these goals: at least 0.05 above stemmed BM25 + GloVe cosine at
// 512, 1,024 and 2,048 tokens and above it at 4,096, never below stemmed
// BM25, at least 0.80 at 1,024 and 0.88 at 2,048, no answer over budget,
// each backend's label-free gate (WithGate, loaded before each save as
// an agent loop does) at least level with its hand-set weights, and each
// backend within 0.005 of the figures the README publishes. It replays 2,760 turns per memory and budget (about a minute),
// so it runs only with ENGRAM_EVAL=1, as .ci/run sets it.
func TestRealDialogue(t *testing.T) {
	if os.Getenv("ENGRAM_EVAL") == "" {
		t.Skip("set ENGRAM_EVAL=1 to replay the development set")
	}
	path := os.Getenv("ENGRAM_LOCOMO")
	if path == "" {
		path = filepath.Join("..", "..", "..", "..", "shared", "data", "locomo-dev.json")
	}
	ss, err := dataset.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("no development set at %s", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	ms, err := Select(All(), "rd,dmem,rd-gate,dmem-gate,bm25,bm25glove")
	if err != nil {
		t.Fatal(err)
	}
	budgets := []int{512, 1024, 2048, 4096}
	rs, err := Run(context.Background(), ss, Config{Budgets: budgets, Memories: ms})
	if err != nil {
		t.Fatal(err)
	}
	floor := map[int]float64{1024: 0.80, 2048: 0.88}
	// The figures the README publishes, which a change to speed or memory
	// must not move by more than 0.005 either way.
	published := map[string][]float64{
		"rd":   {0.776, 0.843, 0.893, 0.936},
		"dmem": {0.785, 0.848, 0.897, 0.944},
	}
	for _, budget := range budgets {
		bm25, _ := Find(rs, "bm25", budget)
		glove, _ := Find(rs, "bm25glove", budget)
		margin := 0.05
		if budget > 2048 {
			margin = 1e-9
		}
		for _, name := range []string{"rd", "dmem"} {
			r, ok := Find(rs, name, budget)
			if !ok {
				t.Fatalf("no result for %s at %d", name, budget)
			}
			t.Logf("%s at %d tokens: recall %.3f (bm25 %.3f, bm25+glove %.3f); load p50 %.0f µs, %.1f× bm25's",
				name, budget, r.Recall, bm25.Recall, glove.Recall, r.LoadP50, r.LoadP50/bm25.LoadP50)
			if want := published[name][slices.Index(budgets, budget)]; math.Abs(r.Recall-want) > 0.005 {
				t.Errorf("%s at %d tokens: recall %.3f, more than 0.005 from the published %.3f", name, budget, r.Recall, want)
			}
			if r.Recall < glove.Recall+margin || r.Recall < bm25.Recall || r.Recall < floor[budget] || r.OverBudget > 0 {
				t.Errorf("%s at %d tokens: recall %.3f, %.1f%% over budget; want ≥ %.3f (bm25+glove + %.2f), ≥ %.3f (bm25), ≥ %.2f, none over",
					name, budget, r.Recall, 100*r.OverBudget, glove.Recall+margin, margin, bm25.Recall, floor[budget])
			}
		}
		// The label-free gate at least matches the hand-set weights.
		for _, pair := range [][2]string{{"rd-gate", "rd"}, {"dmem-gate", "dmem"}} {
			g, _ := Find(rs, pair[0], budget)
			hand, _ := Find(rs, pair[1], budget)
			if g.Recall < hand.Recall {
				t.Errorf("%s at %d tokens: recall %.3f below the hand-set weights' %.3f", pair[0], budget, g.Recall, hand.Recall)
			}
		}
	}
}

// TestHeapIndependentOfOrder: the tables a memory builds on first use are
// built before any heap is measured, so the same memory run first and
// second holds about the same heap per turn (it was eight times as much
// first, carrying the word vectors and the tokenizer).
func TestHeapIndependentOfOrder(t *testing.T) {
	cfg := dataset.DefaultGenConfig()
	cfg.Samples = 1
	ss, err := dataset.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := Select(Engram(), "rd")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Run(context.Background(), ss, Config{Budgets: []int{512}, Memories: []Memory{rd[0], rd[0]}})
	if err != nil {
		t.Fatal(err)
	}
	first, second := rs[0].HeapPerTurn, rs[1].HeapPerTurn
	if first > 1.5*second || second > 1.5*first {
		t.Fatalf("heap per turn %.0f B run first, %.0f B run second", first, second)
	}
}
