package eval

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/engram-go/engram/cmd/memeval/dataset"
	"github.com/engram-go/engram/tokens"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

// Config says what to run.
type Config struct {
	// Budgets are the token budgets to try, e.g. 512, 1024, 2048, 4096.
	Budgets []int
	// Memories are the memories to compare.
	Memories []Memory
	// Progress, if set, is called after each conversation replayed and
	// questioned, with the number done and the total.
	Progress func(done, total int)
	// Dated gives the memories each session's date while its turns are
	// saved (ReplayClock). The save-then-ask protocol gives them none:
	// every turn is saved "now". The update evaluation is always dated.
	Dated bool
}

// Result is one memory's scores at one budget, over all samples.
type Result struct {
	Memory string `json:"memory"`
	Budget int    `json:"budget"`
	// Recall is the mean evidence recall over scored questions.
	Recall float64 `json:"recall"`
	// RecallByCategory is the same per question category name.
	RecallByCategory map[string]float64 `json:"recall_by_category"`
	Questions        int                `json:"questions"`
	// MeanTokens is the mean exact size of what was returned.
	MeanTokens float64 `json:"mean_tokens"`
	// OverBudget is the share of answers larger than the budget.
	OverBudget float64 `json:"over_budget"`
	// Latencies of SaveContext and LoadMemoryVariables, in microseconds.
	SaveP50 float64 `json:"save_p50_us"`
	SaveP99 float64 `json:"save_p99_us"`
	LoadP50 float64 `json:"load_p50_us"`
	LoadP99 float64 `json:"load_p99_us"`
	// HeapPerTurn is the heap the memory holds per saved turn, in bytes.
	HeapPerTurn float64 `json:"heap_per_turn_bytes"`
}

// acc accumulates one (memory, budget) cell.
type acc struct {
	recall, tokens  float64
	over, questions int
	byCat           map[string][2]float64 // sum, count
	saves, loads    []time.Duration
	heap            float64
	heapN           int
}

// Run replays every sample into every memory at every budget and scores it.
func Run(ctx context.Context, samples []dataset.Sample, cfg Config) ([]Result, error) {
	if len(samples) > 0 {
		if err := warm(ctx, &samples[0], cfg.Memories); err != nil {
			return nil, err
		}
	}
	cells, err := sweep(samples, cfg, "eval", func(s *dataset.Sample) string { return s.ID }, func() *acc { return &acc{byCat: make(map[string][2]float64)} },
		func(s *dataset.Sample, m Memory, budget int, a *acc) error {
			return runOne(ctx, s, m, budget, cfg.Dated, a)
		})
	if err != nil {
		return nil, err
	}
	var out []Result
	for mi, m := range cfg.Memories {
		for bi, budget := range cfg.Budgets {
			out = append(out, cells[[2]int{mi, bi}].result(m.Name, budget))
		}
	}
	return out, nil
}

// warm makes each memory once, saves s's first pair and loads, so that the
// tables a memory reads on first use (word vectors, the lexicon, the
// tokenizer) are built before any heap is measured: else the first memory
// of a run carries them, and its heap per turn depends on the order.
func warm(ctx context.Context, s *dataset.Sample, ms []Memory) error {
	pairs := Pairs(s)
	if len(pairs) == 0 {
		return nil
	}
	for _, m := range ms {
		mem, _, done, err := open(ctx, m, 64, s, false)
		if err != nil {
			return fmt.Errorf("eval: %s: %w", m.Name, err)
		}
		err = mem.SaveContext(ctx, map[string]any{"input": pairs[0][0]}, map[string]any{"output": pairs[0][1]})
		if err == nil {
			_, err = mem.LoadMemoryVariables(ctx, map[string]any{"input": pairs[0][0]})
		}
		done()
		if err != nil {
			return fmt.Errorf("eval: %s: %w", m.Name, err)
		}
	}
	return nil
}

// sweep calls one for every sample, memory and budget of cfg, in that
// order, with the cell of (memory, budget) it accumulates into (made by
// fresh), and reports progress; what, "eval" or "eval: updates", opens
// its errors, and id names the sample they happened on. It returns the cells by (memory, budget) index.
func sweep[S, A any](samples []S, cfg Config, what string, id func(*S) string, fresh func() *A, one func(s *S, m Memory, budget int, a *A) error) (map[[2]int]*A, error) {
	if len(cfg.Budgets) == 0 || len(cfg.Memories) == 0 || len(samples) == 0 {
		return nil, fmt.Errorf("%s: nothing to run: %d conversations, %d budgets, %d memories", what, len(samples), len(cfg.Budgets), len(cfg.Memories))
	}
	cells := make(map[[2]int]*A)
	total, done := len(samples)*len(cfg.Memories)*len(cfg.Budgets), 0
	for si := range samples {
		s := &samples[si]
		for mi, m := range cfg.Memories {
			for bi, budget := range cfg.Budgets {
				key := [2]int{mi, bi}
				if cells[key] == nil {
					cells[key] = fresh()
				}
				if err := one(s, m, budget, cells[key]); err != nil {
					return nil, fmt.Errorf("%s: %s at %d tokens on %s: %w", what, m.Name, budget, id(s), err)
				}
				done++
				if cfg.Progress != nil {
					cfg.Progress(done, total)
				}
			}
		}
	}
	return cells, nil
}

// Pairs returns a sample's turns as the (input, output) pairs the replay
// saves: consecutive turns, each rendered "Speaker: text".
func Pairs(s *dataset.Sample) [][2]string {
	turns := s.Turns()
	var out [][2]string
	for i := 0; i < len(turns); i += 2 {
		p := [2]string{turnText(turns[i]), ""}
		if i+1 < len(turns) {
			p[1] = turnText(turns[i+1])
		}
		out = append(out, p)
	}
	return out
}

func turnText(t dataset.Turn) string { return t.Speaker + ": " + t.Text }

func runOne(ctx context.Context, s *dataset.Sample, m Memory, budget int, dated bool, a *acc) error {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	mem, clk, done, err := open(ctx, m, budget, s, dated)
	if err != nil {
		return err
	}
	defer done()
	saves, err := replay(ctx, mem, clk, s)
	if err != nil {
		return err
	}
	a.saves = append(a.saves, saves...)
	if len(saves) > 0 {
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		a.heap += float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(2*len(saves))
		a.heapN++
	}

	counter := tokens.Default()
	for _, qa := range s.QA {
		// Evidence ids that name no turn (published LoCoMo has some) are
		// not held against a memory; a question with none left is skipped.
		ev := s.Evidence(qa)
		if qa.Category == dataset.Adversarial || len(ev) == 0 {
			continue
		}
		start := time.Now()
		vars, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": qa.Question})
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		a.loads = append(a.loads, time.Since(start))
		got, err := history(vars, mem.GetMemoryKey(ctx))
		if err != nil {
			return err
		}
		texts := make([]string, len(ev))
		for i, t := range ev {
			texts[i] = squash(t.Text)
		}
		r := share(got, texts)
		a.recall += r
		a.questions++
		c := a.byCat[qa.Category.String()]
		a.byCat[qa.Category.String()] = [2]float64{c[0] + r, c[1] + 1}
		n := counter.Count(got)
		a.tokens += float64(n)
		if n > budget {
			a.over++
		}
	}
	return nil
}

// open builds m's memory for a replay of s; dated, with a replay clock in
// the context New sees (ReplayClock), which replay moves. done closes it.
func open(ctx context.Context, m Memory, budget int, s *dataset.Sample, dated bool) (mem schema.Memory, clk *clock, done func(), err error) {
	if dated {
		ctx, clk = withClock(ctx)
	} else {
		clk = new(clock) // moved by replay, read by no one
	}
	if mem, err = m.New(ctx, budget, s); err != nil {
		return nil, nil, nil, err
	}
	return mem, clk, func() {
		if m.Close != nil {
			m.Close(mem)
		}
	}, nil
}

// replay saves s's pairs into mem in order, clk (open's) set to each
// pair's session date, and returns
// how long each save took.
func replay(ctx context.Context, mem schema.Memory, clk *clock, s *dataset.Sample) ([]time.Duration, error) {
	at := pairTimes(s)
	var saves []time.Duration
	for i, p := range Pairs(s) {
		if !at[i].IsZero() {
			clk.set(at[i])
		}
		start := time.Now()
		if err := mem.SaveContext(ctx, map[string]any{"input": p[0]}, map[string]any{"output": p[1]}); err != nil {
			return nil, fmt.Errorf("save: %w", err)
		}
		saves = append(saves, time.Since(start))
	}
	return saves, nil
}

// history returns a memory's returned history as text.
func history(vars map[string]any, key string) (string, error) {
	switch v := vars[key].(type) {
	case string:
		return v, nil
	case []llms.ChatMessage:
		return llms.GetBufferString(v, "Human", "AI")
	case nil:
		return "", nil
	default:
		return "", fmt.Errorf("memory returned %T under %q", v, key)
	}
}

func (a *acc) result(name string, budget int) Result {
	r := Result{Memory: name, Budget: budget, Questions: a.questions, RecallByCategory: make(map[string]float64)}
	if a.questions > 0 {
		q := float64(a.questions)
		r.Recall, r.MeanTokens, r.OverBudget = a.recall/q, a.tokens/q, float64(a.over)/q
	}
	for c, v := range a.byCat {
		r.RecallByCategory[c] = v[0] / v[1]
	}
	r.SaveP50, r.SaveP99 = percentile(a.saves, 0.5), percentile(a.saves, 0.99)
	r.LoadP50, r.LoadP99 = percentile(a.loads, 0.5), percentile(a.loads, 0.99)
	if a.heapN > 0 {
		r.HeapPerTurn = max(0, a.heap/float64(a.heapN))
	}
	return r
}

// percentile returns the p-quantile of ds in microseconds.
func percentile(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(p * float64(len(s)-1))
	return float64(s[i].Nanoseconds()) / 1e3
}

// Find returns the result for a memory at a budget.
func Find(rs []Result, memory string, budget int) (Result, bool) {
	for _, r := range rs {
		if r.Memory == memory && r.Budget == budget {
			return r, true
		}
	}
	return Result{}, false
}

// WriteTable prints results as an aligned table, one row per memory and
// budget.
func WriteTable(w io.Writer, rs []Result) error {
	cats := []string{"single-hop", "multi-hop", "temporal", "open-domain"}
	fmt.Fprintf(w, "%-10s %6s %7s", "memory", "budget", "recall")
	for _, c := range cats {
		fmt.Fprintf(w, " %11s", c)
	}
	_, err := fmt.Fprintf(w, " %7s %6s %9s %9s %9s %9s %8s\n", "tokens", "over", "save p50", "save p99", "load p50", "load p99", "heap/turn")
	if err != nil {
		return err
	}
	for _, r := range rs {
		fmt.Fprintf(w, "%-10s %6d %7.3f", r.Memory, r.Budget, r.Recall)
		for _, c := range cats {
			if v, ok := r.RecallByCategory[c]; ok {
				fmt.Fprintf(w, " %11.3f", v)
			} else {
				fmt.Fprintf(w, " %11s", "-") // no question of the category
			}
		}
		_, err := fmt.Fprintf(w, " %7.0f %5.1f%% %7.0fµs %7.0fµs %7.0fµs %7.0fµs %7.0fB\n",
			r.MeanTokens, 100*r.OverBudget, r.SaveP50, r.SaveP99, r.LoadP50, r.LoadP99, r.HeapPerTurn)
		if err != nil {
			return err
		}
	}
	return nil
}

var _ schema.Memory = (*bm25)(nil)

// squash returns s with every run of white space made one space.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }
