package memorytest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/tokens"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

// Options are the options of package option that the checks set, by the
// names of their With functions (WithTokenBudget, WithMemoryKey,
// WithHalfLife, …). A zero field leaves the memory's default.
type Options struct {
	TokenBudget                    int
	MemoryKey, InputKey, OutputKey string
	HumanPrefix, AIPrefix          string
	ReturnMessages                 bool
	HalfLife                       float64
	MaxUnits                       int
	RedundancyThreshold            float64
	MaxMessageBytes                int
	RecentMessages                 int
	Clock                          func() time.Time
}

// Explainer is a memory that reports what its last load kept and dropped,
// as both engram memories do.
type Explainer interface {
	schema.Memory
	Explain() (engram.LoadReport, bool)
}

// List returns o's set fields as the options of package option they name,
// in the order of the fields.
func (o Options) List() []option.Option {
	var opts []option.Option
	add := func(set bool, opt option.Option) {
		if set {
			opts = append(opts, opt)
		}
	}
	add(o.TokenBudget != 0, option.WithTokenBudget(o.TokenBudget))
	add(o.MemoryKey != "", option.WithMemoryKey(o.MemoryKey))
	add(o.InputKey != "", option.WithInputKey(o.InputKey))
	add(o.OutputKey != "", option.WithOutputKey(o.OutputKey))
	add(o.HumanPrefix != "", option.WithHumanPrefix(o.HumanPrefix))
	add(o.AIPrefix != "", option.WithAIPrefix(o.AIPrefix))
	add(o.ReturnMessages, option.WithReturnMessages(true))
	add(o.HalfLife != 0, option.WithHalfLife(o.HalfLife))
	add(o.MaxUnits != 0, option.WithMaxUnits(o.MaxUnits))
	add(o.RedundancyThreshold != 0, option.WithRedundancyThreshold(o.RedundancyThreshold))
	add(o.MaxMessageBytes != 0, option.WithMaxMessageBytes(o.MaxMessageBytes))
	add(o.RecentMessages != 0, option.WithRecentMessages(o.RecentMessages))
	add(o.Clock != nil, option.WithClock(o.Clock))
	return opts
}

// NewFunc makes a memory configured by opts (an [Options]' List, which
// the memory's New takes as they are) and returns what the constructor
// returned. The checks do not close what it returns: a memory that needs
// closing is closed by a t.Cleanup that NewFunc registers.
type NewFunc func(t *testing.T, opts ...option.Option) (Explainer, error)

// Engram checks what every engram memory shares beyond schema.Memory:
// the common options mean the same thing, bad values of them are refused
// with [engram.ErrInvalidOption], the budget holds by an exact cl100k_base
// count, and Explain reports the last load: false before any, then every
// returned line as a kept unit or the date header before one (the line
// naming the day a history said over several days goes on), in order,
// the rest as dropped, and the returned history's exact cost; and a bad
// input gets the same answer from every memory.
func Engram(t *testing.T, newMemory NewFunc) {
	t.Run("Budget", func(t *testing.T) { budget(t, newMemory) })
	t.Run("Keys", func(t *testing.T) { keys(t, newMemory) })
	t.Run("Prefixes", func(t *testing.T) { prefixes(t, newMemory) })
	t.Run("ReturnMessages", func(t *testing.T) { returnMessages(t, newMemory) })
	t.Run("Validated", func(t *testing.T) { validated(t, newMemory) })
	t.Run("RecentMessages", func(t *testing.T) { recentMessages(t, newMemory) })
	t.Run("Explain", func(t *testing.T) { explain(t, newMemory) })
	t.Run("BadInput", func(t *testing.T) { badInput(t, newMemory) })
}

// badInput: each input a memory cannot store is refused with an error
// wrapping engram.ErrInvalidInput, and nothing is stored: an empty turn,
// a step with no text, a non-finite reward, a value of the wrong type, a
// message longer than WithMaxMessageBytes allows (engram.ErrTooLarge).
func badInput(t *testing.T, newMemory NewFunc) {
	ctx := context.Background()
	cases := []struct {
		name string
		call func(m Explainer) error
	}{
		{"empty turn", func(m Explainer) error {
			return m.SaveContext(ctx, map[string]any{"input": ""}, map[string]any{"output": " \n"})
		}},
		{"non-string input", func(m Explainer) error {
			return m.SaveContext(ctx, map[string]any{"input": 42}, map[string]any{"output": "ok"})
		}},
		{"nil inputs", func(m Explainer) error { return m.SaveContext(ctx, nil, map[string]any{"output": "ok"}) }},
		{"non-string query", func(m Explainer) error {
			_, err := m.LoadMemoryVariables(ctx, map[string]any{"input": 42})
			return err
		}},
	}
	steps := []struct {
		name string
		call func(s engram.RewardSink) error
	}{
		{"empty step", func(s engram.RewardSink) error { return s.Observe(ctx, engram.Step{}) }},
		{"blank step", func(s engram.RewardSink) error {
			return s.Observe(ctx, engram.Step{Kind: engram.StepToolResult, Text: " \t\n"})
		}},
		{"step with a NaN reward", func(s engram.RewardSink) error {
			return s.Observe(ctx, engram.Step{Text: "ok", Reward: math.NaN()})
		}},
		{"infinite reward", func(s engram.RewardSink) error { return s.Reward(ctx, math.Inf(1)) }},
	}
	for _, s := range steps {
		cases = append(cases, struct {
			name string
			call func(m Explainer) error
		}{s.name, func(m Explainer) error {
			sink, ok := m.(engram.RewardSink)
			if !ok {
				t.Skip("the memory takes no steps or rewards")
			}
			return s.call(sink)
		}})
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			m := mustNew(t, newMemory, Options{})
			if err := tt.call(m); !errors.Is(err, engram.ErrInvalidInput) {
				t.Fatalf("err = %v, want engram.ErrInvalidInput", err)
			}
			if h := loadString(t, m, "history", ""); h != "" {
				t.Fatalf("a refused input left a history:\n%s", h)
			}
		})
	}
	t.Run("message too large", func(t *testing.T) {
		m := mustNew(t, newMemory, Options{MaxMessageBytes: 16})
		save(t, m, map[string]any{"input": "sixteen bytes ok"}, map[string]any{"output": "fine"})
		err := m.SaveContext(ctx, map[string]any{"input": "seventeen bytes!!"}, map[string]any{"output": "fine"})
		if !errors.Is(err, engram.ErrTooLarge) || !errors.Is(err, engram.ErrInvalidInput) {
			t.Fatalf("err = %v, want engram.ErrTooLarge", err)
		}
		if h := loadString(t, m, "history", ""); strings.Contains(h, "seventeen") {
			t.Fatalf("a refused message is in the history:\n%s", h)
		}
	})
	t.Run("negative max message bytes", func(t *testing.T) {
		if _, err := newMemory(t, Options{MaxMessageBytes: -1}.List()...); !errors.Is(err, engram.ErrInvalidOption) {
			t.Fatalf("err = %v, want engram.ErrInvalidOption", err)
		}
	})
}

// mustNew returns the memory newMemory makes with o's options, failing
// the test on an error.
func mustNew(t *testing.T, newMemory NewFunc, o Options) Explainer {
	t.Helper()
	m, err := newMemory(t, o.List()...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// conversation is a few dozen distinct one-line turns: names, numbers,
// dates and chit-chat.
func conversation() [][2]string {
	names := []string{"Priya", "Tomás", "Aiko", "Olu", "Maren", "Dev", "Lena", "Jorge"}
	cities := []string{"Lisbon", "Osaka", "Lagos", "Bergen", "Pune", "Quito", "Graz", "Hobart"}
	var turns [][2]string
	for i := range 36 {
		n, c := names[i%len(names)], cities[(i*3)%len(cities)]
		switch i % 3 {
		case 0:
			turns = append(turns, [2]string{
				fmt.Sprintf("My friend %s moved to %s in %d; her locker code is %d.", n, c, 2001+i, 4000+37*i),
				fmt.Sprintf("Noted: %s lives in %s now, locker %d.", n, c, 4000+37*i)})
		case 1:
			turns = append(turns, [2]string{
				fmt.Sprintf("What is the weather like in %s this week, turn %d?", c, i),
				fmt.Sprintf("Mild in %s, around %d degrees.", c, 10+i%15)})
		default:
			turns = append(turns, [2]string{
				fmt.Sprintf("Remember that meeting %d with %s is on day %d of the month.", i, n, 1+i%28),
				fmt.Sprintf("I will remember meeting %d with %s on day %d.", i, n, 1+i%28)})
		}
	}
	return turns
}

func save(t *testing.T, m schema.Memory, in, out map[string]any) {
	t.Helper()
	if err := m.SaveContext(context.Background(), in, out); err != nil {
		t.Fatal(err)
	}
}

func saveAll(t *testing.T, m schema.Memory, turns [][2]string) {
	t.Helper()
	for _, p := range turns {
		save(t, m, map[string]any{"input": p[0]}, map[string]any{"output": p[1]})
	}
}

// loadString loads for query under "input" and returns the history string.
func loadString(t *testing.T, m schema.Memory, key, query string) string {
	t.Helper()
	vars, err := m.LoadMemoryVariables(context.Background(), map[string]any{"input": query})
	if err != nil {
		t.Fatal(err)
	}
	s, ok := vars[key].(string)
	if !ok {
		t.Fatalf("history under %q is %T, want a string", key, vars[key])
	}
	return s
}

var queries = []string{"Where does Priya live?", "What is Olu's locker code?", "When is meeting 8?", ""}

// budget: no load returns more than the budget, counted exactly, and
// Explain agrees with every load.
func budget(t *testing.T, newMemory NewFunc) {
	c := tokens.Default()
	for _, b := range []int{24, 60, 150, 400, 5000} {
		t.Run(fmt.Sprint(b), func(t *testing.T) {
			m := mustNew(t, newMemory, Options{TokenBudget: b})
			saveAll(t, m, conversation())
			for _, q := range queries {
				h := loadString(t, m, "history", q)
				if n := c.Count(h); n > b {
					t.Fatalf("query %q: the history costs %d tokens, budget %d:\n%s", q, n, b, h)
				}
				checkReport(t, m, Options{}, q, b, h)
			}
		})
	}
}

// recentMessages: WithRecentMessages(2) keeps the newest pair in a load
// whose question shares nothing with it and finds many lines relevant,
// and only as long as each message costs at most a quarter of the budget,
// and Explain says so; without it, relevance decides, and here drops the
// newest turn.
func recentMessages(t *testing.T, newMemory NewFunc) {
	const q = "Which friend moved to which city, and what is her locker code?"
	long := "Honestly, " + strings.Repeat("what a day it has been, ", 12) + "truly."
	for _, tc := range []struct {
		name       string
		recent     int
		in, out    string
		kept, gone []string
	}{
		{"kept", 2, "Honestly, what a day.", "Tell me more.", []string{"Honestly, what a day.", "Tell me more."}, nil},
		{"over a quarter of the budget", 2, long, "Tell me more.", []string{"Tell me more."}, []string{"truly."}},
		{"none", 0, "Honestly, what a day.", "Tell me more.", nil, []string{"Honestly, what a day."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustNew(t, newMemory, Options{TokenBudget: 120, RecentMessages: tc.recent})
			saveAll(t, m, conversation())
			save(t, m, map[string]any{"input": tc.in}, map[string]any{"output": tc.out})
			h := loadString(t, m, "history", q)
			if !strings.Contains(h, "locker") {
				t.Errorf("the load kept nothing relevant to %q:\n%s", q, h)
			}
			for _, s := range tc.kept {
				if !strings.Contains(h, s) {
					t.Errorf("%q is not kept:\n%s", s, h)
				}
			}
			// Explain says why the newest were kept.
			x, _ := m.Explain()
			for _, u := range x.Units {
				if u.Kept && slices.Contains(tc.kept, u.Text) && u.Why != "one of the newest messages" {
					t.Errorf("%q kept because %q, want %q", u.Text, u.Why, "one of the newest messages")
				}
			}
			for _, s := range tc.gone {
				if strings.Contains(h, s) {
					t.Errorf("%q is kept:\n%s", s, h)
				}
			}
		})
	}
}

// keys: the memory key names the history; the input and output keys pick
// the messages out of several.
func keys(t *testing.T, newMemory NewFunc) {
	ctx := context.Background()
	t.Run("Default", func(t *testing.T) {
		m := mustNew(t, newMemory, Options{})
		if k := m.GetMemoryKey(ctx); k != "history" {
			t.Fatalf("default memory key %q, want history", k)
		}
		// A lone key is the message, whatever its name.
		save(t, m, map[string]any{"question": "My cat Miso is nine."}, map[string]any{"text": "Miso sounds lovely."})
		h := loadString(t, m, "history", "How old is Miso?")
		if !strings.Contains(h, "My cat Miso is nine.") || !strings.Contains(h, "Miso sounds lovely.") {
			t.Fatalf("the lone input and output keys were not read:\n%s", h)
		}
	})
	// Several input keys and none set: save and load both refuse, as
	// langchaingo's buffers do, rather than each guessing on its own.
	t.Run("Ambiguous", func(t *testing.T) {
		m := mustNew(t, newMemory, Options{})
		in := map[string]any{"question": "My cat Miso is nine.", "context": "a note"}
		err := m.SaveContext(ctx, in, map[string]any{"output": "Miso sounds lovely."})
		if !errors.Is(err, engram.ErrInvalidInput) || !strings.Contains(err.Error(), "multiple keys and no input key set") {
			t.Fatalf("save with keys question and context: %v, want engram.ErrInvalidInput, multiple keys and no input key set", err)
		}
		save(t, m, map[string]any{"question": "My cat Miso is nine."}, map[string]any{"output": "Miso sounds lovely."})
		_, err = m.LoadMemoryVariables(ctx, map[string]any{"question": "How old is Miso?", "context": "a note"})
		if !errors.Is(err, engram.ErrInvalidInput) || !strings.Contains(err.Error(), "multiple keys and no input key set") {
			t.Fatalf("load with keys question and context: %v, want engram.ErrInvalidInput, multiple keys and no input key set", err)
		}
		if r, ok := m.Explain(); ok {
			t.Fatalf("a refused load left a report for %q", r.Query)
		}
	})
	t.Run("Set", func(t *testing.T) {
		m := mustNew(t, newMemory, Options{MemoryKey: "chat_history", InputKey: "question", OutputKey: "answer"})
		if k := m.GetMemoryKey(ctx); k != "chat_history" {
			t.Fatalf("memory key %q, want chat_history", k)
		}
		if vs := m.MemoryVariables(ctx); !slices.Equal(vs, []string{"chat_history"}) {
			t.Fatalf("memory variables %q, want [chat_history]", vs)
		}
		save(t, m, map[string]any{"question": "My cat Miso is nine.", "context": "IGNORED-IN"},
			map[string]any{"answer": "Miso sounds lovely.", "source": "IGNORED-OUT"})
		const q = "How old is Miso?"
		vars, err := m.LoadMemoryVariables(ctx, map[string]any{"question": q, "context": "not the query"})
		if err != nil {
			t.Fatal(err)
		}
		if len(vars) != 1 {
			t.Fatalf("load returned %d variables, want chat_history alone: %v", len(vars), vars)
		}
		h, _ := vars["chat_history"].(string)
		if !strings.Contains(h, "My cat Miso is nine.") || !strings.Contains(h, "Miso sounds lovely.") || strings.Contains(h, "IGNORED") {
			t.Fatalf("the input and output keys did not pick the messages:\n%s", h)
		}
		if r, ok := m.Explain(); !ok || r.Query != q {
			t.Fatalf("Explain's query %q (%v), want the input key's %q", r.Query, ok, q)
		}
	})
}

// prefixes: the human and AI prefixes label the lines.
func prefixes(t *testing.T, newMemory NewFunc) {
	for _, o := range []Options{{}, {HumanPrefix: "User", AIPrefix: "Bot"}} {
		human, ai := cmp.Or(o.HumanPrefix, "Human"), cmp.Or(o.AIPrefix, "AI")
		t.Run(human+"/"+ai, func(t *testing.T) {
			m := mustNew(t, newMemory, o)
			save(t, m, map[string]any{"input": "My cat Miso is nine."}, map[string]any{"output": "Miso sounds lovely."})
			h := loadString(t, m, "history", "How old is Miso?")
			want := human + ": My cat Miso is nine.\n" + ai + ": Miso sounds lovely."
			if h != want {
				t.Fatalf("history %q, want %q", h, want)
			}
		})
	}
}

// returnMessages: the history comes back as chat messages of the right
// types, texts as saved, line breaks included.
func returnMessages(t *testing.T, newMemory NewFunc) {
	m := mustNew(t, newMemory, Options{ReturnMessages: true})
	in, out := "My cat Miso is nine.\nShe likes tuna.", "Miso sounds lovely."
	save(t, m, map[string]any{"input": in}, map[string]any{"output": out})
	vars, err := m.LoadMemoryVariables(context.Background(), map[string]any{"input": "How old is Miso?"})
	if err != nil {
		t.Fatal(err)
	}
	msgs, ok := vars["history"].([]llms.ChatMessage)
	if !ok {
		t.Fatalf("history is %T, want []llms.ChatMessage", vars["history"])
	}
	if len(msgs) != 2 || msgs[0].GetType() != llms.ChatMessageTypeHuman || msgs[0].GetContent() != in ||
		msgs[1].GetType() != llms.ChatMessageTypeAI || msgs[1].GetContent() != out {
		t.Fatalf("messages %v, want the human %q and the AI %q", msgs, in, out)
	}
}

// validated: good values of the common options are taken, bad ones
// refused with engram.ErrInvalidOption.
func validated(t *testing.T, newMemory NewFunc) {
	bad := []struct {
		name string
		o    Options
	}{
		{"negative budget", Options{TokenBudget: -1}},
		{"negative half-life", Options{HalfLife: -8}},
		{"negative max units", Options{MaxUnits: -1}},
		{"redundancy threshold above 1", Options{RedundancyThreshold: 1.5}},
		{"negative redundancy threshold", Options{RedundancyThreshold: -0.5}},
		{"blank human prefix", Options{HumanPrefix: " Human"}},
		{"blank AI prefix", Options{AIPrefix: "\tAI"}},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := newMemory(t, tt.o.List()...); !errors.Is(err, engram.ErrInvalidOption) {
				t.Fatalf("err = %v, want engram.ErrInvalidOption", err)
			}
		})
	}
	t.Run("good", func(t *testing.T) {
		const b = 150
		m := mustNew(t, newMemory, Options{TokenBudget: b, HalfLife: 16, MaxUnits: 20, RedundancyThreshold: 0.8})
		saveAll(t, m, conversation())
		h := loadString(t, m, "history", "Where does Priya live?")
		if n := tokens.Default().Count(h); n > b || n == 0 {
			t.Fatalf("the history costs %d tokens, want 1 to %d:\n%s", n, b, h)
		}
	})
}

// explain: false before a load and after Clear; after one, the report of
// exactly what it returned.
func explain(t *testing.T, newMemory NewFunc) {
	ctx := context.Background()
	o := Options{TokenBudget: 120, HumanPrefix: "User", AIPrefix: "Bot"}
	m := mustNew(t, newMemory, o)
	if _, ok := m.Explain(); ok {
		t.Fatal("Explain reports a load before any")
	}
	saveAll(t, m, conversation())
	if _, ok := m.Explain(); ok {
		t.Fatal("Explain reports a load after saves alone")
	}
	for _, q := range queries {
		checkReport(t, m, o, q, o.TokenBudget, loadString(t, m, "history", q))
	}
	if err := m.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Explain(); ok {
		t.Fatal("Explain reports a load after Clear")
	}

	// Said over several days, the history comes under date headers,
	// which the report places before their units and counts.
	day := time.Date(2023, 5, 8, 9, 0, 0, 0, time.UTC)
	for _, b := range []int{60, 400} {
		clock := day
		o := Options{TokenBudget: b, Clock: func() time.Time { clock = clock.Add(7 * time.Hour); return clock }}
		m := mustNew(t, newMemory, o)
		saveAll(t, m, conversation()[:12])
		headed := false
		for _, q := range queries {
			checkReport(t, m, o, q, b, loadString(t, m, "history", q))
			r, _ := m.Explain()
			for _, u := range r.Units {
				headed = headed || u.Header != ""
			}
		}
		if !headed {
			t.Errorf("budget %d: a history said over several days reports no date header", b)
		}
	}
}

// checkReport checks m's report of the load of query that returned history
// h within budget: every line a kept unit's or its date header, in order,
// and a dropped unit's none, Tokens h's exact cost.
func checkReport(t *testing.T, m Explainer, o Options, query string, budget int, h string) {
	t.Helper()
	r, ok := m.Explain()
	if !ok {
		t.Fatalf("query %q: Explain reports no load after one", query)
	}
	if r.Query != query || r.Budget != budget {
		t.Fatalf("Explain reports query %q, budget %d; want %q, %d", r.Query, r.Budget, query, budget)
	}
	if n := tokens.Default().Count(h); r.Tokens != n {
		t.Fatalf("query %q: Explain reports %d tokens, the history costs %d", query, r.Tokens, n)
	}
	if r.Summary != "" {
		t.Fatalf("query %q: a summary %q without WithSummaryShare", query, r.Summary)
	}
	human, ai := cmp.Or(o.HumanPrefix, "Human"), cmp.Or(o.AIPrefix, "AI")
	var kept []string
	for i, u := range r.Units {
		if i > 0 && u.Seq <= r.Units[i-1].Seq {
			t.Fatalf("query %q: units not oldest first: %d after %d", query, u.Seq, r.Units[i-1].Seq)
		}
		label := ai
		if u.Role == engram.RoleHuman {
			label = human
		}
		if u.Why == "" {
			t.Errorf("query %q: unit %s has no Why", query, u.ID)
		}
		if u.Header != "" && !u.Kept {
			t.Fatalf("query %q: dropped unit %s has the header %q", query, u.ID, u.Header)
		}
		if u.Header != "" {
			kept = append(kept, u.Header)
		}
		if u.Kept {
			kept = append(kept, label+": "+u.Text)
		}
	}
	var lines []string
	if h != "" {
		lines = strings.Split(h, "\n")
	}
	if !slices.Equal(lines, kept) {
		t.Fatalf("query %q: the kept units render\n%s\nthe history is\n%s", query, strings.Join(kept, "\n"), h)
	}
}
