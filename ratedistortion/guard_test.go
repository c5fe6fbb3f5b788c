package ratedistortion

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/memory"
)

// deadline is the caller's deadline in these tests, and slack how late
// past it a call may return here: the guard returns at once (its own test
// holds it to 100 ms), but a machine running every package's tests under
// the race detector may take a while to schedule the caller. The plug-ins
// block for a second, well past both.
const (
	deadline = 100 * time.Millisecond
	slack    = 400 * time.Millisecond
)

// warm decodes the embedded word vectors, token ranks and lexicon, once per
// process, before the first timed call.
var warm sync.Once

// timed runs fn under a context with the test deadline and fails t if fn
// returns later than slack past it.
func timed(t *testing.T, what string, fn func(ctx context.Context) error) error {
	t.Helper()
	warm.Do(func() { save(t, newBuffer(t), "Omar lives in Lisbon.", "Nice.") })
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	start := time.Now()
	err := fn(ctx)
	if d := time.Since(start); d > deadline+slack {
		t.Errorf("%s took %v under a %v deadline", what, d, deadline)
	}
	return err
}

// badTier is a long-term tier that panics, or blocks ignoring its context
// until released, as told.
type badTier struct {
	fakeTier
	panics  atomic.Bool
	block   chan struct{} // when not nil, Demote and Recall wait on it
	demotes atomic.Int32
}

func (b *badTier) Demote(ctx context.Context, us []engram.Demoted) error {
	b.demotes.Add(1)
	if b.panics.Load() {
		panic("tier bug")
	}
	if b.block != nil {
		<-b.block
	}
	return b.fakeTier.Demote(ctx, us)
}

func (b *badTier) Recall(ctx context.Context, q string, budget int) ([]engram.Unit, error) {
	if b.panics.Load() {
		panic("tier bug")
	}
	if b.block != nil {
		<-b.block
	}
	return b.fakeTier.Recall(ctx, q, budget)
}

func (b *badTier) Reward(ctx context.Context, r float64) error {
	if b.panics.Load() {
		panic("tier bug")
	}
	return b.fakeTier.Reward(ctx, r)
}

// errorLog collects what an error handler is told.
type errorLog struct {
	mu   sync.Mutex
	errs []error
}

func (l *errorLog) handle(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, err)
}

func (l *errorLog) any(target error) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, err := range l.errs {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

func TestPanickingTierIsSurvived(t *testing.T) {
	lt := &badTier{}
	var log errorLog
	b := newBuffer(t, option.WithTokenBudget(200), option.WithMaxUnits(4), WithLongTerm(lt), option.WithErrorHandler(log.handle), quiet)
	lt.panics.Store(true)
	for i := range 6 {
		save(t, b, fmt.Sprintf("Turn %d about the boat.", i), fmt.Sprintf("Ok %d.", i))
	}
	load(t, b, "Tell me about the boat.")
	st := b.Stats()
	if st.Failures.LongTerm == 0 || !log.any(engram.ErrPanicked) {
		t.Fatalf("the tier's panics went unseen: %+v", st.Failures)
	}
	if st.Queued == 0 {
		t.Fatalf("the units a panicking tier did not take are not queued")
	}
	lt.panics.Store(false)
	save(t, b, "Turn 6 about the boat.", "Ok.")
	held := lt.texts()
	if len(held) == 0 || held[0] != "Turn 0 about the boat." {
		t.Fatalf("after the panics the tier got %q, want the queue from turn 0", held)
	}
	seen := map[string]int{}
	for _, s := range held {
		seen[s]++
	}
	for s, n := range seen {
		if n > 1 {
			t.Errorf("%q handed down %d times", s, n)
		}
	}
}

func TestBlockedTierDoesNotHoldSaves(t *testing.T) {
	lt := &badTier{block: make(chan struct{})}
	b := newBuffer(t, option.WithTokenBudget(200), option.WithMaxUnits(4), WithLongTerm(lt), quiet)
	for i := range 2 {
		save(t, b, fmt.Sprintf("Turn %d about the boat.", i), "Ok.")
	}
	// The next save passes the cap: its hand-down blocks, past the deadline.
	for i := 2; i < 6; i++ {
		err := timed(t, "a save over a blocked tier", func(ctx context.Context) error {
			return b.SaveContext(ctx, map[string]any{"input": fmt.Sprintf("Turn %d about the boat.", i)}, map[string]any{"output": "Ok."})
		})
		if err != nil {
			t.Fatalf("save %d: %v", i, err)
		}
	}
	if n := lt.demotes.Load(); n != 1 {
		t.Errorf("Demote called %d times while the first call was stuck, want 1", n)
	}
	if err := timed(t, "a load over a blocked tier", func(ctx context.Context) error {
		_, err := b.LoadMemoryVariables(ctx, map[string]any{"input": "the boat"})
		return err
	}); err != nil {
		t.Fatalf("load: %v", err)
	}
	if b.Stats().Failures.LongTerm < 2 {
		t.Errorf("failures %+v, want the stuck demote and recall counted", b.Stats().Failures)
	}
	close(lt.block) // the stuck hand-down ends, and the tier takes its batch
	for range 100 {
		b.mu.Lock()
		busy := b.handing
		b.mu.Unlock()
		if !busy {
			break
		}
		time.Sleep(time.Millisecond)
	}
	save(t, b, "Turn 6 about the boat.", "Ok.")
	held := lt.texts()
	if n := len(held) + b.Stats().Queued + b.Len(); n != 14 {
		t.Errorf("tier %d + queued %d + pool %d = %d units, want all 14", len(held), b.Stats().Queued, b.Len(), n)
	}
	for i := 1; i < len(held); i++ {
		if held[i] == held[i-1] {
			t.Errorf("%q handed down twice", held[i])
		}
	}
}

// extractor returns a fact extractor that fails as told on units whose
// text is "fail", and states a fact for "Omar lives in Lisbon".
func extractor(how string) engram.FactExtractor {
	return func(ctx context.Context, u engram.Unit, _ []engram.Fact) ([]engram.Fact, error) {
		if u.Text == "fail" {
			switch how {
			case "error":
				return nil, errors.New("model down")
			case "panic":
				panic("extractor bug")
			case "block":
				time.Sleep(time.Second)
			}
		}
		if u.Text == "Omar lives in Lisbon" {
			return []engram.Fact{omarCity("Lisbon")}, nil
		}
		return nil, nil
	}
}

func TestFailingExtractorStoresTheUnitWithoutFacts(t *testing.T) {
	for _, how := range []string{"error", "panic"} {
		t.Run(how, func(t *testing.T) {
			var log errorLog
			b := newBuffer(t, option.WithFacts(extractor(how)), option.WithErrorHandler(log.handle), quiet)
			save(t, b, "Omar lives in Lisbon", "fail")
			us := b.Units()
			if len(us) != 2 || len(us[0].Facts) != 1 || us[1].Facts != nil {
				t.Fatalf("units %+v, want both, the failed one without facts", us)
			}
			if f := b.Stats().Failures.Facts; f != 1 || len(log.errs) != 1 {
				t.Errorf("%d failures counted, %d reported; want 1", f, len(log.errs))
			}
		})
	}
}

func TestExtractorPastTheDeadlineFailsTheSave(t *testing.T) {
	var log errorLog
	b := newBuffer(t, option.WithFacts(extractor("block")), option.WithErrorHandler(log.handle), quiet)
	err := timed(t, "a save", func(ctx context.Context) error {
		return b.SaveContext(ctx, map[string]any{"input": "Omar lives in Lisbon"}, map[string]any{"output": "fail"})
	})
	if !errors.Is(err, context.DeadlineExceeded) || b.Len() != 0 {
		t.Fatalf("save = %v with %d units, want the deadline's error and none", err, b.Len())
	}
	if f := b.Stats().Failures.Facts; f != 1 || !log.any(context.DeadlineExceeded) {
		t.Errorf("%d failures counted, reported %v; want the stuck call", f, log.errs)
	}
}

// badEmbedder panics or blocks, as told, on every call.
type badEmbedder struct{ how string }

func (e badEmbedder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	if e.how == "panic" {
		panic("embedder bug")
	}
	time.Sleep(time.Second)
	return nil, ctx.Err()
}

func (e badEmbedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	v, err := e.EmbedDocuments(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	return v[0], nil
}

func TestFailingEmbedderFailsTheCallAlone(t *testing.T) {
	for _, tt := range []struct {
		how  string
		want error
	}{{"panic", engram.ErrPanicked}, {"block", context.DeadlineExceeded}} {
		t.Run(tt.how, func(t *testing.T) {
			b := newBuffer(t, option.WithEmbedder(badEmbedder{tt.how}), quiet)
			err := timed(t, "a save", func(ctx context.Context) error {
				return b.SaveContext(ctx, map[string]any{"input": "hello"}, map[string]any{"output": "hi"})
			})
			if !errors.Is(err, tt.want) || b.Len() != 0 {
				t.Fatalf("save = %v with %d units, want %v and none", err, b.Len(), tt.want)
			}
			err = timed(t, "a load", func(ctx context.Context) error {
				_, err := b.LoadMemoryVariables(ctx, map[string]any{"input": "hello"})
				return err
			})
			if !errors.Is(err, tt.want) {
				t.Fatalf("load = %v, want %v", err, tt.want)
			}
			if b.Stats().Failures.Embedder != 2 {
				t.Errorf("failures %+v, want 2 of the embedder's", b.Stats().Failures)
			}
		})
	}
}

// blockedHistory is a chat history whose writes block, ignoring their
// context.
type blockedHistory struct{ *memory.ChatMessageHistory }

func (blockedHistory) AddMessage(context.Context, llms.ChatMessage) error {
	time.Sleep(time.Second)
	return nil
}

func TestBlockedChatHistoryReturnsAtTheDeadline(t *testing.T) {
	b := newBuffer(t, option.WithChatHistory(blockedHistory{memory.NewChatMessageHistory()}), quiet)
	err := timed(t, "a save", func(ctx context.Context) error {
		return b.SaveContext(ctx, map[string]any{"input": "hello"}, map[string]any{"output": "hi"})
	})
	if !errors.Is(err, context.DeadlineExceeded) || b.Len() != 0 {
		t.Fatalf("save = %v with %d units, want the deadline's error and none", err, b.Len())
	}
	// A save queued behind one whose deadline is later returns at its own.
	first := make(chan error)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 800*time.Millisecond)
		defer cancel()
		first <- b.SaveContext(ctx, map[string]any{"input": "first"}, map[string]any{"output": "hi"})
	}()
	time.Sleep(20 * time.Millisecond)
	err = timed(t, "a save behind a blocked one", func(ctx context.Context) error {
		return b.SaveContext(ctx, map[string]any{"input": "second"}, map[string]any{"output": "hi"})
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("save = %v, want the deadline's error", err)
	}
	<-first
}

// panickingModel is a summariser that panics.
type panickingModel struct{}

func (panickingModel) GenerateContent(context.Context, []llms.MessageContent, ...llms.CallOption) (*llms.ContentResponse, error) {
	panic("summariser bug")
}

func (panickingModel) Call(context.Context, string, ...llms.CallOption) (string, error) {
	panic("summariser bug")
}

// A summariser that panics costs the load its summary by the model, not
// the load: the extractive summary stands in, and the handler is told of
// the panic.
func TestPanickingSummarizerLeavesTheLoad(t *testing.T) {
	var told error
	b := newBuffer(t, option.WithTokenBudget(120), WithSummaryShare(0.5), WithSummarizer(panickingModel{}), quiet,
		option.WithErrorHandler(func(err error) { told = err }))
	for i := range 20 {
		save(t, b, fmt.Sprintf("Turn %d: my cousin Ana keeps %d goats in Braga.", i, i), "Noted.")
	}
	v, err := b.LoadMemoryVariables(context.Background(), map[string]any{"input": "What about the goats?"})
	if err != nil {
		t.Fatalf("load = %v, want the history with the extractive summary", err)
	}
	if h := v["history"].(string); !strings.Contains(h, "Left out, in brief") {
		t.Errorf("history %q has no summary", h)
	}
	if !errors.Is(told, engram.ErrPanicked) {
		t.Errorf("handler told %v, want an error wrapping ErrPanicked", told)
	}
	if b.Stats().Failures.Summarizer != 1 {
		t.Errorf("failures %+v, want the summariser's panic", b.Stats().Failures)
	}
}

// TestMillionFactsCostLittle checks that an extractor returning a million
// facts costs a save no more than a page of them would.
func TestMillionFactsCostLittle(t *testing.T) {
	cities := make([]engram.Fact, 1000)
	for i := range cities {
		cities[i] = omarCity(fmt.Sprint("City ", i))
	}
	many := make([]engram.Fact, 1_000_000)
	for i := 0; i < len(many); i += len(cities) {
		copy(many[i:], cities)
	}
	b := newBuffer(t, option.WithFacts(func(context.Context, engram.Unit, []engram.Fact) ([]engram.Fact, error) { return many, nil }), quiet)
	warm.Do(func() { save(t, newBuffer(t), "Omar lives in Lisbon.", "Nice.") })
	start := time.Now()
	save(t, b, "Omar lives in Lisbon.", "Nice.")
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("a save took %v", d)
	}
	if us := b.Units(); len(us[0].Facts) != 1 || us[0].Facts[0].Value != "City 999" {
		t.Errorf("facts %v, want the last statement of the one slot", us[0].Facts)
	}
}

// shortEmbedder returns one vector fewer than it is given texts.
type shortEmbedder struct{}

func (shortEmbedder) EmbedDocuments(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, max(0, len(texts)-1))
	for i := range out {
		out[i] = []float32{1, 0}
	}
	return out, nil
}

func (shortEmbedder) EmbedQuery(context.Context, string) ([]float32, error) {
	return []float32{1, 0}, nil
}

// An embedder that answers for fewer texts than it was given is bad input
// from a plug-in, refused as such, and the save stores nothing.
func TestEmbedderShortOfVectorsIsInvalidInput(t *testing.T) {
	b := newBuffer(t, option.WithEmbedder(shortEmbedder{}), quiet)
	err := b.SaveContext(context.Background(), map[string]any{"input": "hello"}, map[string]any{"output": "hi"})
	if !errors.Is(err, engram.ErrInvalidInput) || b.Len() != 0 {
		t.Fatalf("save = %v with %d units, want ErrInvalidInput and none", err, b.Len())
	}
}
