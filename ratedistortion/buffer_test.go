package ratedistortion

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/tokens"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/fake"
)

func newBuffer(t testing.TB, opts ...Option) *Buffer {
	t.Helper()
	b, err := New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func save(t testing.TB, b *Buffer, in, out string) {
	t.Helper()
	if err := b.SaveContext(context.Background(), map[string]any{"input": in}, map[string]any{"output": out}); err != nil {
		t.Fatal(err)
	}
}

func load(t testing.TB, b *Buffer, q string) string {
	t.Helper()
	v, err := b.LoadMemoryVariables(context.Background(), map[string]any{"input": q})
	if err != nil {
		t.Fatal(err)
	}
	return v["history"].(string)
}

func TestKeepsRelevantOldFactOverNewChatter(t *testing.T) {
	b := newBuffer(t, option.WithTokenBudget(120))
	save(t, b, "My sister Priya works as a marine biologist in Lisbon.", "That sounds like a fascinating job!")
	for i := range 40 {
		save(t, b, fmt.Sprintf("The weather is nice today, round %d.", i), "Glad to hear it.")
	}
	h := load(t, b, "Where does Priya work?")
	if !strings.Contains(h, "marine biologist in Lisbon") {
		t.Fatalf("old fact lost:\n%s", h)
	}
	if n := tokens.Default().Count(h); n > 120 {
		t.Fatalf("history is %d tokens, budget 120", n)
	}
	x, ok := b.ExplainSelection()
	if !ok || x.Tokens != tokens.Default().Count(h) {
		t.Fatalf("explained tokens %d, counted %d", x.Tokens, tokens.Default().Count(h))
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t, option.WithTokenBudget(100))
	save(t, b, "keep me", "kept")
	tests := []struct {
		name    string
		in, out map[string]any
	}{
		{"nil inputs", nil, map[string]any{"output": "x"}},
		{"nil outputs", map[string]any{"input": "x"}, nil},
		{"empty inputs", map[string]any{}, map[string]any{"output": "x"}},
		{"non-string", map[string]any{"input": 42}, map[string]any{"output": "x"}},
		{"ambiguous keys", map[string]any{"a": "x", "b": "y"}, map[string]any{"output": "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := b.SaveContext(ctx, tt.in, tt.out)
			if !errors.Is(err, engram.ErrInvalidInput) {
				t.Fatalf("err = %v, want ErrInvalidInput", err)
			}
			if b.Len() != 2 {
				t.Fatalf("pool has %d units after a refused save, want 2", b.Len())
			}
		})
	}
	if _, err := b.LoadMemoryVariables(ctx, map[string]any{"input": 3}); !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("non-string query: err = %v", err)
	}
	for _, n := range []int{0, -5} {
		if _, err := New(option.WithTokenBudget(n)); !errors.Is(err, engram.ErrInvalidOption) {
			t.Fatalf("budget %d: err = %v", n, err)
		}
	}
}

func TestOversizedMessage(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t, option.WithTokenBudget(50))
	huge := strings.Repeat("a long line about nothing in particular ", 30)
	save(t, b, "Remember my locker code is 2231.", "Noted.")
	save(t, b, huge, "ok")
	h := load(t, b, "what is my locker code?")
	if strings.Contains(h, huge) || !strings.Contains(h, "2231") {
		t.Fatalf("history:\n%s", h)
	}
	if b.Len() != 4 {
		t.Fatalf("the oversized pair was not kept in the pool: %d units", b.Len())
	}
	us := b.Units()
	if err := b.Pin(us[2].ID); err != nil {
		t.Fatal(err)
	}
	_, err := b.LoadMemoryVariables(ctx, map[string]any{"input": "x"})
	if !errors.Is(err, engram.ErrBudgetTooSmall) {
		t.Fatalf("pinned oversized unit: err = %v, want ErrBudgetTooSmall", err)
	}
	if err := b.Unpin(us[2].ID); err != nil {
		t.Fatal(err)
	}
	if err := b.Pin("nope"); !errors.Is(err, engram.ErrNotFound) {
		t.Fatalf("Pin unknown: err = %v", err)
	}
}

func TestKeysAndEncoding(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t, option.WithInputKey("question"), option.WithOutputKey("answer"), option.WithMemoryKey("chat"), option.WithHumanPrefix("User"), option.WithAIPrefix("Bot"))
	err := b.SaveContext(ctx, map[string]any{"question": "bad \xff bytes", "extra": 1}, map[string]any{"answer": "fine", "other": "x"})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.SaveContext(ctx, map[string]any{"input": "x"}, map[string]any{"answer": "y"}); !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("missing input key: err = %v", err)
	}
	v, err := b.LoadMemoryVariables(ctx, map[string]any{"question": "bytes"})
	if err != nil {
		t.Fatal(err)
	}
	h, ok := v["chat"].(string)
	if !ok || h != "User: bad \uFFFD bytes\nBot: fine" {
		t.Fatalf("history %q", h)
	}
	if _, err := New(option.WithHumanPrefix(" spaced")); !errors.Is(err, engram.ErrInvalidOption) {
		t.Fatalf("prefix with leading space: err = %v", err)
	}
}

func TestToolCallsStayWithResults(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t, option.WithTokenBudget(1000))
	err := b.AddMessages(ctx,
		llms.HumanChatMessage{Content: "What's the weather in Oslo?"},
		llms.AIChatMessage{ToolCalls: []llms.ToolCall{{ID: "c1", FunctionCall: &llms.FunctionCall{Name: "weather", Arguments: `{"city":"Oslo"}`}}}},
		llms.ToolChatMessage{ID: "c1", Content: "-3C and snowing"},
		llms.AIChatMessage{Content: "It is -3C and snowing in Oslo."},
	)
	if err != nil {
		t.Fatal(err)
	}
	us := b.Units()
	if len(us) != 4 || us[1].Group != us[2].Group || us[0].Group == us[1].Group || us[1].Role != engram.RoleToolCall {
		t.Fatalf("groups: %+v", us)
	}
	if !strings.Contains(us[1].Text, `weather({"city":"Oslo"})`) {
		t.Fatalf("tool call text %q", us[1].Text)
	}
}

func TestReturnMessagesAndSummary(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t, option.WithTokenBudget(90), option.WithReturnMessages(true), WithSummaryShare(0.5))
	save(t, b, "My dentist appointment is on 12 May at 3pm.", "Got it.")
	for i := range 12 {
		save(t, b, fmt.Sprintf("Random chatter number %d about the game last night.", i), "Ha, yes.")
	}
	v, err := b.LoadMemoryVariables(ctx, map[string]any{"input": "anything new?"})
	if err != nil {
		t.Fatal(err)
	}
	msgs, ok := v["history"].([]llms.ChatMessage)
	if !ok || len(msgs) == 0 {
		t.Fatalf("history %T", v["history"])
	}
	x, _ := b.ExplainSelection()
	if x.Summary == "" {
		t.Fatalf("no summary:\n%s", x)
	}
	// Every summary line quotes a dropped unit.
	for _, line := range strings.Split(x.Summary, "\n")[1:] {
		quoted := false
		for _, u := range x.Units {
			quoted = quoted || (!u.Kept && strings.Contains(line, u.Text))
		}
		if !quoted {
			t.Fatalf("summary line %q quotes no dropped unit", line)
		}
	}
	if _, ok := msgs[0].(llms.SystemChatMessage); !ok {
		t.Fatalf("first message %T, want the summary", msgs[0])
	}
	s, _ := llms.GetBufferString(msgs, "Human", "AI")
	if n := tokens.Default().Count(s); n > 90 || n != x.Tokens {
		t.Fatalf("rendered messages are %d tokens, Explain says %d, budget 90", n, x.Tokens)
	}
}

func TestModelSummary(t *testing.T) {
	model := fake.NewFakeLLM([]string{strings.Repeat("The user booked a dentist visit on 12 May. ", 20)})
	b := newBuffer(t, option.WithTokenBudget(80), WithSummarizer(model), WithSummaryShare(0.5))
	save(t, b, "My dentist appointment is on 12 May at 3pm.", "Got it.")
	for i := range 12 {
		save(t, b, fmt.Sprintf("Random chatter number %d.", i), "Ha.")
	}
	h := load(t, b, "hello")
	x, _ := b.ExplainSelection()
	if !strings.Contains(x.Summary, "dentist visit") {
		t.Fatalf("summary %q is not the model's", x.Summary)
	}
	if n := tokens.Default().Count(h); n > 80 {
		t.Fatalf("history %d tokens > 80:\n%s", n, h)
	}
	// The same dropped set does not call the model again (the fake would fail).
	load(t, b, "hello")
}

// TestObserveRendersOneLabel: an observed tool step is a tool line under
// one label, as in dmem; its text says how it went.
func TestObserveRendersOneLabel(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t, option.WithTokenBudget(200))
	if err := b.Observe(ctx, engram.Step{Kind: engram.StepToolError, Text: "weather(Lyon): timeout", Reward: -1}); err != nil {
		t.Fatal(err)
	}
	if err := b.Observe(ctx, engram.Step{Kind: engram.StepToolResult, Text: "weather(Lyon): 14C", Reward: 0.5}); err != nil {
		t.Fatal(err)
	}
	h := load(t, b, "weather in Lyon")
	for _, want := range []string{"tool: weather(Lyon): timeout\n", "tool: weather(Lyon): 14C"} {
		if !strings.Contains(h, want) {
			t.Fatalf("history lacks %q:\n%s", want, h)
		}
	}
	if err := b.Observe(ctx, engram.Step{Text: "x", Reward: math.Inf(1)}); !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("infinite reward: err = %v", err)
	}
}

// A tool call given to Observe and the results observed after it are one
// group: a load keeps or drops them together, never a result without the
// call it answers, also after a save and restore between the two; the
// next human turn ends the call, and a result observed after it stands
// alone. As messages, the observed result names no call id.
func TestObservedToolCallKeepsItsResult(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t, option.WithTokenBudget(500))
	save(t, b, "weather in Lyon?", "checking")
	if err := b.Observe(ctx, engram.Step{Kind: engram.StepToolCall, Text: "weather(Lyon)"}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := b.Save(&buf); err != nil {
		t.Fatal(err)
	}
	b, err := Restore(ctx, &buf, option.WithTokenBudget(500))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []engram.Step{{Kind: engram.StepToolResult, Text: "14C"}, {Kind: engram.StepToolError, Text: "retry later"}} {
		if err := b.Observe(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	us := b.Units()
	if us[2].Role != engram.RoleToolCall || us[3].Group != us[2].Group || us[4].Group != us[2].Group {
		t.Fatalf("the observed call is %s in group %d, its results in %d and %d", us[2].Role, us[2].Group, us[3].Group, us[4].Group)
	}
	if h := load(t, b, "Lyon"); strings.Contains(h, "14C") != strings.Contains(h, "weather(Lyon)") {
		t.Errorf("a load split the call from its result:\n%s", h)
	}
	save(t, b, "and in Oslo?", "checking")
	if err := b.Observe(ctx, engram.Step{Kind: engram.StepToolResult, Text: "9C"}); err != nil {
		t.Fatal(err)
	}
	us = b.Units()
	if last := us[len(us)-1]; last.Group == us[2].Group {
		t.Errorf("a result observed after the next turn joined the old call's group %d", last.Group)
	}
	m := newBuffer(t, option.WithTokenBudget(500), option.WithReturnMessages(true))
	save(t, m, "weather in Lyon?", "checking")
	_ = m.Observe(ctx, engram.Step{Kind: engram.StepToolCall, Text: "weather(Lyon)"})
	_ = m.Observe(ctx, engram.Step{Kind: engram.StepToolResult, Text: "14C"})
	v, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "Lyon"})
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range v["history"].([]llms.ChatMessage) {
		if tm, ok := msg.(llms.ToolChatMessage); ok {
			t.Errorf("an observed result came back as a tool message answering %q", tm.ID)
		}
	}
}

// deployPool returns a buffer of three lines, two of them about the
// deploy, with room for one line: what a rating of deployQuestion moves.
func deployPool(t *testing.T) *Buffer {
	t.Helper()
	b := newBuffer(t, option.WithTokenBudget(14), WithSummaryShare(0))
	save(t, b, "The deploy script lives in tools/deploy.sh.", "")
	save(t, b, "Deploy from the build host only.", "")
	save(t, b, "Lunch is at noon.", "")
	return b
}

const deployQuestion = "How do I deploy?"

// A rating is about the load it follows: asked again in the same words, an
// answer rated down makes room for what it did not show, and one rated up
// is shown again.
func TestRatingMovesTheNextLoadOfTheQuestion(t *testing.T) {
	ctx := context.Background()
	b := deployPool(t)
	first := load(t, b, deployQuestion)
	if err := b.Reward(ctx, -1); err != nil {
		t.Fatal(err)
	}
	second := load(t, b, deployQuestion)
	if second == first {
		t.Fatalf("an answer rated down was shown again:\n%s", second)
	}
	if err := b.Reward(ctx, 1); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if got := load(t, b, deployQuestion); got != second {
			t.Fatalf("an answer rated up was not shown again:\n%s\nwant\n%s", got, second)
		}
	}
	if err := b.Reward(ctx, math.NaN()); !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("NaN reward: err = %v", err)
	}
}

// An agent executor saves the exchange before the user rates it: the
// rating still reaches the load. After a second question it no longer
// does.
func TestRatingAfterTheRatedExchangeIsSaved(t *testing.T) {
	ctx := context.Background()
	for _, saves := range []int{0, 1, 2} {
		b := deployPool(t)
		first := load(t, b, deployQuestion)
		for i := range saves {
			save(t, b, fmt.Sprintf("Noted %d.", i), "")
		}
		if err := b.Reward(ctx, -1); err != nil {
			t.Fatal(err)
		}
		moved := load(t, b, deployQuestion) != first
		if want := saves <= 1; moved != want {
			t.Errorf("%d saves between the load and its rating: the next load changed %v, want %v", saves, moved, want)
		}
	}
}

func TestPointerMessagesAndZeroCounter(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t, option.WithTokenCounter(func(string) int { return 0 }))
	err := b.AddMessages(ctx,
		&llms.AIChatMessage{ToolCalls: []llms.ToolCall{{ID: "c9", FunctionCall: &llms.FunctionCall{Name: "f"}}}},
		&llms.ToolChatMessage{ID: "c9", Content: "done"},
		llms.GenericChatMessage{Role: "tool", Content: "orphan result"})
	if err != nil {
		t.Fatal(err)
	}
	us := b.Units()
	if us[0].Group != us[1].Group || us[2].Group == us[1].Group {
		t.Fatalf("groups %d %d %d", us[0].Group, us[1].Group, us[2].Group)
	}
	if _, err := b.LoadMemoryVariables(ctx, nil); err != nil {
		t.Fatalf("a counter that says 0 still loads: %v", err)
	}
}

func TestPinDuringLoadIsRaceFree(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t, option.WithTokenBudget(200), option.WithReturnMessages(true))
	for i := range 30 {
		save(t, b, fmt.Sprintf("fact %d", i), "ok")
	}
	ids := b.Units()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 200 {
			_ = b.Pin(ids[i%len(ids)].ID)
			_ = b.Unpin(ids[i%len(ids)].ID)
		}
	}()
	go func() {
		defer wg.Done()
		for range 50 {
			if _, err := b.LoadMemoryVariables(ctx, map[string]any{"input": "fact 3"}); err != nil {
				t.Error(err)
			}
		}
	}()
	wg.Wait()
}

// Text ending in white space would cost more as the history's last line,
// which has no "\n", than its line was counted: it is stored trimmed.
func TestTrailingSpaceStaysInBudget(t *testing.T) {
	c := tokens.Default()
	for _, out := range []string{"ok \r", "ok\n\t", "fine   ", "x \r\n \r"} {
		budget := c.Count("Human: hi\n") + c.Count("AI: "+out+"\n")
		b := newBuffer(t, option.WithTokenBudget(budget))
		save(t, b, "hi", out)
		v, err := b.LoadMemoryVariables(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		h := v["history"].(string)
		if n := c.Count(h); n > budget {
			t.Errorf("output %q: history %q costs %d tokens, budget %d", out, h, n, budget)
		}
		if !strings.HasPrefix(h, "Human: hi\nAI: ") {
			t.Errorf("output %q: history %q lost the pair", out, h)
		}
	}
}

func TestTypedNilMessage(t *testing.T) {
	b := newBuffer(t, option.WithTokenBudget(100))
	var ai *llms.AIChatMessage
	var human *llms.HumanChatMessage
	for _, m := range []llms.ChatMessage{ai, human, nil} {
		if err := b.AddMessages(context.Background(), llms.HumanChatMessage{Content: "kept?"}, m); !errors.Is(err, engram.ErrInvalidInput) {
			t.Errorf("AddMessages(%T nil) = %v, want ErrInvalidInput", m, err)
		}
	}
	if b.Len() != 0 {
		t.Errorf("a refused batch stored %d units", b.Len())
	}
}

// A scorer's huge but finite utilities sum to +Inf in a group; they are
// capped, so loads still work.
func TestHugeUtilities(t *testing.T) {
	huge := engram.ScorerFunc(func(engram.Features) float64 { return math.MaxFloat64 })
	b := newBuffer(t, option.WithTokenBudget(200), WithScorer(huge))
	save(t, b, "hello there", "hi")
	save(t, b, "Priya moved to Lisbon", "nice")
	v, err := b.LoadMemoryVariables(context.Background(), map[string]any{"input": "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if h := v["history"].(string); !strings.Contains(h, "Lisbon") || !strings.Contains(h, "hello there") {
		t.Errorf("history %q: both pairs fit and are worth the same", h)
	}
}

// gatedModel is a summariser whose calls wait until released, and fail
// while fail is set.
type gatedModel struct {
	entered, release chan struct{}
	fail             bool
}

func (m *gatedModel) GenerateContent(ctx context.Context, _ []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	if m.entered != nil {
		m.entered <- struct{}{}
		<-m.release
	}
	if m.fail {
		return nil, errors.New("model down")
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "earlier: small talk"}}}, nil
}

func (m *gatedModel) Call(ctx context.Context, p string, o ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, p, o...)
}

// fillForSummary saves enough that a 120-token load leaves units out, so
// that the summariser is called.
func fillForSummary(t *testing.T, b *Buffer) {
	for i := range 10 {
		save(t, b, fmt.Sprintf("Fact %d: Priya's locker code is %d.", i, 1000+i), "Noted.")
	}
}

// cancellingModel is a summariser that, while *cancel is set, ends its
// caller's context, as a caller that gives up on a load while the model
// runs does; otherwise it summarises.
type cancellingModel struct{ cancel *context.CancelFunc }

func (m cancellingModel) GenerateContent(ctx context.Context, _ []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	if *m.cancel != nil {
		(*m.cancel)()
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "earlier: small talk"}}}, nil
}

func (m cancellingModel) Call(ctx context.Context, p string, o ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, p, o...)
}

// A failed load changes nothing: the units it would have returned are not
// counted as retrieved, and Explain still shows the last good load.
func TestFailedLoadLeavesNoTrace(t *testing.T) {
	var cancel context.CancelFunc
	b := newBuffer(t, option.WithTokenBudget(120), WithSummaryShare(0.5), WithSummarizer(cancellingModel{&cancel}), quiet)
	fillForSummary(t, b)
	for range 3 {
		var ctx context.Context
		ctx, cancel = context.WithCancel(context.Background())
		if _, err := b.LoadMemoryVariables(ctx, map[string]any{"input": "locker code 1003"}); !errors.Is(err, context.Canceled) {
			t.Fatalf("a load given up on while it summarised: %v, want the context's error", err)
		}
	}
	if _, ok := b.ExplainSelection(); ok {
		t.Error("Explain reports a load that failed")
	}
	cancel = nil
	if _, err := b.LoadMemoryVariables(context.Background(), map[string]any{"input": "locker code 1003"}); err != nil {
		t.Fatal(err)
	}
	x, _ := b.ExplainSelection()
	for _, u := range x.Units {
		if u.Features.Retrieved != 0 {
			t.Errorf("unit %s: retrieved %d times before the first load that succeeded", u.ID, u.Features.Retrieved)
		}
	}
}

// A load whose summariser fails, not its caller, shows the extractive
// summary in its place; the failure is counted and passed on.
func TestFailingSummarizerGivesTheExtractiveSummary(t *testing.T) {
	var told []error
	m := &gatedModel{fail: true}
	b := newBuffer(t, option.WithTokenBudget(120), WithSummaryShare(0.5), WithSummarizer(m), quiet,
		option.WithErrorHandler(func(err error) { told = append(told, err) }))
	fillForSummary(t, b)
	v, err := b.LoadMemoryVariables(context.Background(), map[string]any{"input": "locker code 1003"})
	if err != nil {
		t.Fatalf("a load whose summariser failed: %v", err)
	}
	if h := v["history"].(string); !strings.Contains(h, "Left out, in brief") || !strings.Contains(h, "1003") {
		t.Errorf("history %q: want the extractive summary and the asked fact", h)
	}
	if b.Stats().Failures.Summarizer != 1 || len(told) != 1 {
		t.Errorf("failures %+v, handler told %v: want the summariser's one failure", b.Stats().Failures, told)
	}
	if _, ok := b.ExplainSelection(); !ok {
		t.Error("Explain does not report the load")
	}
}

// A load that a Clear overtakes while it summarises does not bring the
// cleared pool back into Explain or Reward.
func TestClearDuringLoad(t *testing.T) {
	m := &gatedModel{entered: make(chan struct{}), release: make(chan struct{})}
	b := newBuffer(t, option.WithTokenBudget(120), WithSummaryShare(0.5), WithSummarizer(m))
	fillForSummary(t, b)
	done := make(chan error)
	go func() {
		_, err := b.LoadMemoryVariables(context.Background(), map[string]any{"input": "locker code 1003"})
		done <- err
	}()
	select {
	case <-m.entered:
	case err := <-done:
		t.Fatalf("the load did not call the summariser: %v", err)
	}
	if err := b.Clear(context.Background()); err != nil {
		t.Fatal(err)
	}
	close(m.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if x, ok := b.ExplainSelection(); ok {
		t.Errorf("after Clear, Explain reports %d units of the cleared pool", len(x.Units))
	}
}

func TestSummaryShareZeroTurnsSummariesOff(t *testing.T) {
	b := newBuffer(t, option.WithTokenBudget(100), WithSummaryShare(0))
	save(t, b, "hi", "hello")
	save(t, b, strings.Repeat("Priya lives in Lisbon. ", 40), "ok")
	v, err := b.LoadMemoryVariables(context.Background(), map[string]any{"input": "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if h := v["history"].(string); strings.Contains(h, "Left out") {
		t.Errorf("history %q has a summary", h)
	}
}

// A step's reward that follows a load — a test run on code written from
// what the load showed — rates the load as Reward does: the next load of
// its question differs from the one after the same step unrated.
func TestObservedRewardRatesTheLoad(t *testing.T) {
	ctx := context.Background()
	next := func(reward float64) string {
		b := deployPool(t)
		load(t, b, deployQuestion)
		if err := b.Observe(ctx, engram.Step{Kind: engram.StepToolResult, Text: "tool: tests(deploy) → 3 failed", Reward: reward}); err != nil {
			t.Fatal(err)
		}
		return load(t, b, deployQuestion)
	}
	if rated, unrated := next(-1), next(0); rated == unrated {
		t.Fatalf("a failed test run after the load did not move the next load of its question:\n%s", rated)
	}
}
