package dmem

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/tokens"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/vectorstores"
)

func save(t testing.TB, m *Memory, in, out string) {
	t.Helper()
	if err := m.SaveContext(bg, map[string]any{"input": in}, map[string]any{"output": out}); err != nil {
		t.Fatal(err)
	}
}

func load(t testing.TB, m *Memory, q string) string {
	t.Helper()
	v, err := m.LoadMemoryVariables(bg, map[string]any{"input": q})
	if err != nil {
		t.Fatal(err)
	}
	return v["history"].(string)
}

func TestOptionsValidated(t *testing.T) {
	tests := []struct {
		name string
		opt  Option
	}{
		{"zero budget", option.WithTokenBudget(0)},
		{"negative capacity", option.WithMaxUnits(-1)},
		{"negative short term", WithShortTerm(-1)},
		{"zero half-life", option.WithHalfLife(0)},
		{"NaN half-life", option.WithHalfLife(math.NaN())},
		{"infinite half-life", option.WithHalfLife(math.Inf(1))},
		{"merge above 1", option.WithRedundancyThreshold(1.5)},
		{"discount 1", WithDiscount(1)},
		{"negative candidates", WithCandidates(-3)},
		{"empty memory key", option.WithMemoryKey("")},
		{"blank prefix", option.WithHumanPrefix(" x")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(bg, tt.opt); !errors.Is(err, engram.ErrInvalidOption) {
				t.Fatalf("err = %v, want ErrInvalidOption", err)
			}
		})
	}
}

// fixedEmbedder returns vectors of a set length, or fails, for input tests.
type fixedEmbedder struct {
	dim int
	val float32
}

func (e *fixedEmbedder) vec(s string) []float32 {
	v := make([]float32, e.dim)
	for i := range v {
		v[i] = e.val
	}
	if e.dim > 0 {
		v[len(s)%e.dim] += 1
	}
	return v
}

func (e *fixedEmbedder) EmbedDocuments(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, s := range texts {
		out[i] = e.vec(s)
	}
	return out, nil
}

func (e *fixedEmbedder) EmbedQuery(_ context.Context, s string) ([]float32, error) {
	return e.vec(s), nil
}

func TestBadInputIsTyped(t *testing.T) {
	m := newMemory(t)
	save(t, m, "My sister Priya lives in Lisbon.", "Nice!")
	tests := []struct {
		name string
		call func() error
		want error
	}{
		{"NaN reward", func() error { return m.Reward(bg, math.NaN()) }, engram.ErrInvalidInput},
		{"infinite reward", func() error { return m.Reward(bg, math.Inf(-1)) }, engram.ErrInvalidInput},
		{"NaN step reward", func() error {
			return m.Observe(bg, engram.Step{Kind: engram.StepToolResult, Text: "x", Reward: math.NaN()})
		}, engram.ErrInvalidInput},
		{"empty step", func() error { return m.Observe(bg, engram.Step{Kind: engram.StepToolError, Text: "  "}) }, engram.ErrInvalidInput},
		{"empty turn", func() error {
			return m.SaveContext(bg, map[string]any{"input": ""}, map[string]any{"output": " "})
		}, engram.ErrInvalidInput},
		{"nil inputs", func() error { return m.SaveContext(bg, nil, map[string]any{"output": "x"}) }, engram.ErrInvalidInput},
		{"non-string input", func() error {
			return m.SaveContext(bg, map[string]any{"input": 4}, map[string]any{"output": "x"})
		}, engram.ErrInvalidInput},
		{"non-string query", func() error {
			_, err := m.LoadMemoryVariables(bg, map[string]any{"input": 4})
			return err
		}, engram.ErrInvalidInput},
		{"empty document", func() error {
			_, err := m.AddDocuments(bg, []schema.Document{{PageContent: "ok"}, {PageContent: ""}})
			return err
		}, engram.ErrInvalidInput},
		{"unsupported filter", func() error {
			_, err := m.SimilaritySearch(bg, "Priya", 2, vectorstores.WithFilters(map[string]any{"a": 1}))
			return err
		}, engram.ErrInvalidInput},
		{"unknown unit", func() error { _, err := m.ExplainUnit("u999"); return err }, engram.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := m.Stats().Steps
			if err := tt.call(); !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if after := m.Stats().Steps; after != before {
				t.Fatalf("a refused call recorded %d steps", after-before)
			}
		})
	}
}

func TestRewardWithoutStep(t *testing.T) {
	m := newMemory(t)
	if err := m.Reward(bg, 1); !errors.Is(err, engram.ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
}

func TestMismatchedDimensions(t *testing.T) {
	e := &fixedEmbedder{dim: 8}
	m := newMemory(t, option.WithEmbedder(e))
	save(t, m, "first turn", "reply")
	e.dim = 12
	err := m.SaveContext(bg, map[string]any{"input": "second"}, map[string]any{"output": "turn"})
	if !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("save: err = %v, want ErrInvalidInput", err)
	}
	if _, err := m.LoadMemoryVariables(bg, map[string]any{"input": "first"}); !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("load: err = %v, want ErrInvalidInput", err)
	}
	e.dim, e.val = 8, float32(math.NaN())
	err = m.SaveContext(bg, map[string]any{"input": "third"}, map[string]any{"output": "turn"})
	if !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("NaN vector: err = %v, want ErrInvalidInput", err)
	}
}

func TestClosed(t *testing.T) {
	m, err := New(bg, WithPath(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	save(t, m, "hello Priya", "hi")
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
	checks := map[string]error{
		"save":    m.SaveContext(bg, map[string]any{"input": "x"}, map[string]any{"output": "y"}),
		"reward":  m.Reward(bg, 1),
		"clear":   m.Clear(bg),
		"observe": m.Observe(bg, engram.Step{Text: "x"}),
	}
	_, checks["load"] = m.LoadMemoryVariables(bg, nil)
	_, checks["explain"] = m.ExplainUnit("u0")
	_, _, checks["unit"] = m.Unit("u0")
	for name, err := range checks {
		if !errors.Is(err, engram.ErrClosed) {
			t.Errorf("%s after close: err = %v, want ErrClosed", name, err)
		}
	}
}

// The history never exceeds the budget, counted exactly, and a human turn
// and its reply come back together.
func TestBudgetExactAndPairsKept(t *testing.T) {
	c := makeConversation(9, 300, 0.5)
	for _, budget := range []int{1, 17, 64, 300, 1024} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			m := newMemory(t, option.WithTokenBudget(budget))
			if err := replay(m, c); err != nil {
				t.Fatal(err)
			}
			for _, q := range c.questions[:20] {
				h := load(t, m, q.text)
				if n := tokens.Default().Count(h); n > budget {
					t.Fatalf("history is %d tokens, budget %d", n, budget)
				}
				// Turns are selected on their own: every kept line is a
				// stored unit.
				for _, l := range strings.Split(h, "\n") {
					if l == "" {
						continue
					}
					if strings.HasPrefix(l, "Human: ") && unitByText(m, strings.TrimPrefix(l, "Human: ")) == nil {
						t.Fatalf("line %q is not a stored unit", l)
					}
				}
			}
		})
	}
}

func unitByText(m *Memory, text string) *unit {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, u := range m.byID {
		if u.Text == text {
			return u
		}
	}
	return nil
}

func (m *Memory) groupOf(g int64) []engram.Unit {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []engram.Unit
	for _, u := range m.groups[g] {
		out = append(out, u.Unit)
	}
	return out
}

// Reopening a durable memory restores its units, what it learned, and
// explanations; the index is rebuilt so retrieval works at once.
func TestReopenRestores(t *testing.T) {
	dir := t.TempDir()
	m, err := New(bg, WithPath(dir), option.WithTokenBudget(200))
	if err != nil {
		t.Fatal(err)
	}
	c := makeConversation(4, 200, 0.5)
	if err := replay(m, c); err != nil {
		t.Fatal(err)
	}
	if err := m.Observe(bg, engram.Step{Kind: engram.StepToolError, Text: "payment API returned 503 for invoice 8812", Reward: -3}); err != nil {
		t.Fatal(err)
	}
	q := c.questions[0]
	before, stats := load(t, m, q.text), m.Stats()
	value := m.st.Value
	x0, err := m.ExplainUnit(idOf(0))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}

	m2 := newMemory(t, WithPath(dir), option.WithTokenBudget(200))
	if got := m2.Stats(); got.Core != stats.Core || got.Short != stats.Short || got.Steps != stats.Steps || got.Rewards != stats.Rewards {
		t.Fatalf("stats after reopen %+v, before %+v", got, stats)
	}
	if m2.st.Value != value {
		t.Fatal("value model not restored")
	}
	if after := load(t, m2, q.text); after != before {
		t.Fatalf("load after reopen differs:\n%s\n--- before:\n%s", after, before)
	}
	x1, err := m2.ExplainUnit(idOf(0))
	if err != nil || x1.Route != x0.Route || len(x1.History) != len(x0.History) {
		t.Fatalf("explain after reopen %+v (%v), before %+v", x1, err, x0)
	}
	if err := m2.Clear(bg); err != nil {
		t.Fatal(err)
	}
	m2.Close()
	m3 := newMemory(t, WithPath(dir))
	if s := m3.Stats(); s.Core+s.Short != 0 || s.Steps != 0 {
		t.Fatalf("after Clear and reopen: %+v", s)
	}
}

// Capacity is enforced by evicting the lowest priority, which Explain reports.
func TestCapacityEvictsLowestPriority(t *testing.T) {
	m := newMemory(t, option.WithMaxUnits(20))
	var ids []string
	for i := range 60 {
		got, err := m.AddDocuments(bg, []schema.Document{{PageContent: fmt.Sprintf("%s moved to %s in %d", fxNames[i%len(fxNames)], fxCities[i%len(fxCities)], 1990+i)}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, got...)
	}
	if s := m.Stats(); s.Core != 20 {
		t.Fatalf("core holds %d units, capacity 20", s.Core)
	}
	evicted := 0
	for _, id := range ids {
		x, err := m.ExplainUnit(id)
		if err != nil {
			t.Fatal(err)
		}
		if x.Route == RouteNowhere && x.History[len(x.History)-1].Kind == EventEvicted {
			evicted++
		}
	}
	if evicted != 40 {
		t.Fatalf("%d evictions explained, want 40", evicted)
	}
	// The heap invariant: no stored unit has a lower priority than an evicted one had when it went.
	m.mu.RLock()
	defer m.mu.RUnlock()
	for i := 1; i < len(m.heap); i++ {
		if m.heap.Less(i, (i-1)/2) {
			t.Fatal("heap order broken")
		}
	}
}

// Near-duplicates merge into one unit, adding up their statistics.
func TestNearDuplicatesMerge(t *testing.T) {
	m := newMemory(t)
	save(t, m, "Remember that the wifi password at the cabin is maple-syrup-42.", "Got it.")
	for range 3 {
		save(t, m, "Remember that the wifi password at the cabin is maple-syrup-42.", "Sure.")
	}
	x, err := m.ExplainUnit(idOf(0))
	if err != nil {
		t.Fatal(err)
	}
	if x.Route != RouteCore || x.Merged != 3 {
		t.Fatalf("first statement: %s", x)
	}
	if n := strings.Count(load(t, m, "cabin wifi password"), "maple-syrup-42"); n != 1 {
		t.Fatalf("password appears %d times in the history", n)
	}
}

// Concurrent writers, readers, rewards and explanations, for -race.
func TestConcurrentUse(t *testing.T) {
	m := newMemory(t, WithPath(t.TempDir()), option.WithMaxUnits(50), WithShortTerm(8))
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				in := fmt.Sprintf("writer %d says %s paid %d for %s", w, fxNames[(w*7+i)%len(fxNames)], i*13, fxDishes[i%len(fxDishes)])
				if err := m.SaveContext(bg, map[string]any{"input": in}, map[string]any{"output": "noted"}); err != nil {
					errs <- err
					return
				}
				if i%5 == 0 {
					if err := m.Reward(bg, float64(i%3-1)); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	for r := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				if _, err := m.LoadMemoryVariables(bg, map[string]any{"input": fxNames[(r+i)%len(fxNames)] + " paid"}); err != nil {
					errs <- err
					return
				}
				if _, err := m.SimilaritySearch(bg, fxDishes[i%len(fxDishes)], 3); err != nil {
					errs <- err
					return
				}
				m.ExplainUnit(idOf(int64(i)))
				m.Stats()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if s := m.Stats(); s.Steps != 200 || s.Core > 50 {
		t.Fatalf("stats %+v", s)
	}
}

func TestSimilaritySearchAsRetriever(t *testing.T) {
	m := newMemory(t)
	if _, err := m.AddDocuments(bg, []schema.Document{
		{PageContent: "The staging database password rotates every 30 days.", Metadata: map[string]any{"source": "runbook"}},
		{PageContent: "Deploys happen on Tuesdays after the standup."},
		{PageContent: "The on-call phone is in the drawer under the printer."},
	}); err != nil {
		t.Fatal(err)
	}
	docs, err := vectorstores.ToRetriever(m, 1).GetRelevantDocuments(bg, "how often does the database password rotate?")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 || !strings.Contains(docs[0].PageContent, "rotates every 30 days") || docs[0].Metadata["source"] != "runbook" {
		t.Fatalf("got %+v", docs)
	}
}

// A document's metadata lives as long as its unit: a reopened memory's
// search still returns it, and once the unit is forgotten (past
// WithDepartedUnits) the memory holds it no more.
func TestDocumentMetadataLivesWithItsUnit(t *testing.T) {
	dir := t.TempDir()
	m := newMemory(t, WithPath(dir), option.WithMaxUnits(20), WithDepartedUnits(10))
	doc := func(i int) schema.Document {
		return schema.Document{PageContent: fmt.Sprintf("Runbook %d: the %s rotates every %d days.", i, fxCities[i%len(fxCities)], 3+i),
			Metadata: map[string]any{"page": float64(i)}}
	}
	if _, err := m.AddDocuments(bg, []schema.Document{doc(0)}); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	m = newMemory(t, WithPath(dir), option.WithMaxUnits(20), WithDepartedUnits(10))
	docs, err := m.SimilaritySearch(bg, "Runbook 0 rotates every 3 days", 1)
	if err != nil || len(docs) != 1 || docs[0].Metadata["page"] != float64(0) {
		t.Fatalf("reopened, the search gave %+v, %v", docs, err)
	}
	for i := 1; i < 100; i++ {
		if _, err := m.AddDocuments(bg, []schema.Document{doc(i)}); err != nil {
			t.Fatal(err)
		}
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if n, held := len(m.meta), len(m.byID)+len(m.gone); n > held {
		t.Fatalf("the memory keeps the metadata of %d documents, holding %d units", n, held)
	}
}

// Reopened with other prefixes, a memory recounts its units and stores the
// new counts: a third open, which finds its fingerprint current, must not
// bring the old counts back.
func TestRecountOnReopenIsStored(t *testing.T) {
	dir := t.TempDir()
	open := func(opts ...Option) *Memory {
		m, err := New(bg, append([]Option{WithPath(dir)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := open(option.WithHumanPrefix("H"), option.WithAIPrefix("A"))
	for i := range 10 {
		save(t, m, fmt.Sprintf("Priya%d moved to Lisbon in 20%02d.", i, i), "Noted.")
	}
	m.Close()
	long := strings.TrimSpace(strings.Repeat("Longprefix ", 20))
	open(option.WithHumanPrefix(long), option.WithAIPrefix(long)).Close()
	m = open(option.WithHumanPrefix(long), option.WithAIPrefix(long), option.WithTokenBudget(300))
	defer m.Close()
	h := load(t, m, "Where did Priya3 move?")
	if n := tokens.Default().Count(h); n > 300 || n == 0 {
		t.Fatalf("history of %d tokens for a budget of 300:\n%s", n, h)
	}
	for _, u := range m.UnitsIn(RouteCore) {
		if want := tokens.Default().Count(m.line(u.Role, u.Text)); u.Tokens != want {
			t.Fatalf("unit %s counts %d tokens, its line %d", u.ID, u.Tokens, want)
		}
	}
}

// Observe's reward goes to its own step, even while other goroutines save.
func TestObserveRewardsItsOwnStep(t *testing.T) {
	m := newMemory(t, option.WithMaxUnits(10000))
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 300 {
			if err := m.Observe(bg, engram.Step{Kind: engram.StepToolResult, Text: fmt.Sprintf("tool output %d for Priya", i), Reward: 1}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		for i := range 300 {
			if err := m.SaveContext(bg, map[string]any{"input": fmt.Sprintf("chat %d about Lisbon", i)}, map[string]any{"output": fmt.Sprintf("reply %d", i)}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	wg.Wait()
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, set := range []map[string]*unit{m.byID, m.gone} {
		for _, u := range set {
			if u.Reward != 0 && u.Role != engram.RoleToolResult {
				t.Errorf("unit %s (%s, %q) got a tool step's reward %v", u.ID, u.Role, u.Text, u.Reward)
			}
		}
	}
}

// Text ending in white space would cost more as the history's last line,
// which has no "\n", than its line was counted: it is stored trimmed.
func TestTrailingSpaceStaysInBudget(t *testing.T) {
	c := tokens.Default()
	for _, out := range []string{"ok \r", "ok\n\t", "fine   ", "x \r\n \r"} {
		budget := c.Count("Human: hi there\n") + c.Count("AI: "+out+"\n")
		m := newMemory(t, option.WithTokenBudget(budget))
		save(t, m, "hi there", out)
		h := load(t, m, "")
		if n := c.Count(h); n > budget {
			t.Errorf("output %q: history %q costs %d tokens, budget %d", out, h, n, budget)
		}
		for _, r := range []Route{RouteCore, RouteShort} {
			for _, u := range m.UnitsIn(r) {
				if strings.TrimRightFunc(u.Text, unicode.IsSpace) != u.Text {
					t.Errorf("output %q: stored as %q", out, u.Text)
				}
			}
		}
	}
}
