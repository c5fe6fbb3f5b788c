package dmem

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"sync"
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

var quietLog = option.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))

// warm decodes the embedded word vectors, token ranks and lexicon, once per
// process, before the first timed call.
var warm sync.Once

// timed runs fn under a context with the test deadline and fails t if fn
// returns later than slack past it.
func timed(t *testing.T, what string, fn func(ctx context.Context) error) error {
	t.Helper()
	warm.Do(func() {
		if err := saveCtx(bg, newMemory(t), "Omar lives in Lisbon.", "Nice."); err != nil {
			t.Fatal(err)
		}
	})
	ctx, cancel := context.WithTimeout(bg, deadline)
	defer cancel()
	start := time.Now()
	err := fn(ctx)
	if d := time.Since(start); d > deadline+slack {
		t.Errorf("%s took %v under a %v deadline", what, d, deadline)
	}
	return err
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

func (l *errorLog) count(target error) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, err := range l.errs {
		if errors.Is(err, target) {
			n++
		}
	}
	return n
}

func saveCtx(ctx context.Context, m *Memory, in, out string) error {
	return m.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": out})
}

func TestExtractorFailuresAreCounted(t *testing.T) {
	var log errorLog
	m := newMemory(t, option.WithFacts(func(context.Context, engram.Unit, []engram.Fact) ([]engram.Fact, error) {
		panic("extractor bug")
	}), option.WithErrorHandler(log.handle), quietLog)
	if err := saveCtx(bg, m, "Omar lives in Lisbon.", "Nice."); err != nil {
		t.Fatalf("save with a panicking extractor: %v", err)
	}
	if st := m.Stats(); st.Steps != 2 || st.Failures.Facts != 2 || log.count(engram.ErrPanicked) != 2 {
		t.Errorf("steps %d, failures %+v, told %v; want both units stored and their failures", st.Steps, st.Failures, log.errs)
	}
}

func TestExtractorPastTheDeadlineFailsTheSave(t *testing.T) {
	var log errorLog
	m := newMemory(t, option.WithFacts(func(context.Context, engram.Unit, []engram.Fact) ([]engram.Fact, error) {
		time.Sleep(time.Second)
		return nil, nil
	}), option.WithErrorHandler(log.handle), quietLog)
	err := timed(t, "a save", func(ctx context.Context) error { return saveCtx(ctx, m, "Omar lives in Lisbon.", "Nice.") })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("save = %v, want the deadline's error", err)
	}
	if st := m.Stats(); st.Steps != 0 || st.Failures.Facts != 1 || log.count(context.DeadlineExceeded) != 1 {
		t.Errorf("steps %d, failures %+v, told %v; want nothing stored and the stuck call", st.Steps, st.Failures, log.errs)
	}
}

// blockingEmbedder ignores its context and takes a second; panicking
// embedders panic.
type badEmbedder struct{ panics bool }

func (e badEmbedder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	if e.panics {
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
		name   string
		panics bool
		want   error
	}{{"panic", true, engram.ErrPanicked}, {"block", false, context.DeadlineExceeded}} {
		t.Run(tt.name, func(t *testing.T) {
			m := newMemory(t, option.WithEmbedder(badEmbedder{tt.panics}), quietLog)
			err := timed(t, "a save", func(ctx context.Context) error { return saveCtx(ctx, m, "hello", "hi") })
			if !errors.Is(err, tt.want) || m.Stats().Steps != 0 {
				t.Fatalf("save = %v with %d steps, want %v and none", err, m.Stats().Steps, tt.want)
			}
			if f := m.Stats().Failures.Embedder; f != 1 {
				t.Errorf("%d embedder failures counted, want 1", f)
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
	m := newMemory(t, option.WithChatHistory(blockedHistory{memory.NewChatMessageHistory()}), quietLog)
	err := timed(t, "a save", func(ctx context.Context) error { return saveCtx(ctx, m, "hello", "hi") })
	if !errors.Is(err, context.DeadlineExceeded) || m.Stats().Steps != 0 {
		t.Fatalf("save = %v with %d steps, want the deadline's error and none", err, m.Stats().Steps)
	}
	if f := m.Stats().Failures.ChatHistory; f != 1 {
		t.Errorf("%d chat history failures counted, want 1", f)
	}
	// A save queued behind one whose deadline is later returns at its own.
	first := make(chan error)
	go func() {
		ctx, cancel := context.WithTimeout(bg, 800*time.Millisecond)
		defer cancel()
		first <- saveCtx(ctx, m, "first", "hi")
	}()
	time.Sleep(20 * time.Millisecond)
	err = timed(t, "a save behind a blocked one", func(ctx context.Context) error { return saveCtx(ctx, m, "second", "hi") })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("save = %v, want the deadline's error", err)
	}
	<-first
}

// TestMillionFactsCostLittle checks that an extractor returning a million
// facts costs a save no more than a page of them would.
func TestMillionFactsCostLittle(t *testing.T) {
	cities := make([]engram.Fact, 1000)
	for i := range cities {
		cities[i] = engram.Fact{Subject: "Omar", Relation: "home city", Value: "City " + strconv.Itoa(i)}
	}
	many := make([]engram.Fact, 1_000_000)
	for i := 0; i < len(many); i += len(cities) {
		copy(many[i:], cities)
	}
	m := newMemory(t, option.WithFacts(func(context.Context, engram.Unit, []engram.Fact) ([]engram.Fact, error) { return many, nil }), quietLog)
	warm.Do(func() {
		if err := saveCtx(bg, newMemory(t), "Omar lives in Lisbon.", "Nice."); err != nil {
			t.Fatal(err)
		}
	})
	start := time.Now()
	if err := saveCtx(bg, m, "Omar lives in Lisbon.", "Nice."); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("a save took %v", d)
	}
}
