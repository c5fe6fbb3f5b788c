package guard

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/engram-go/engram"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// slack is how late past its deadline a guarded call may return.
const slack = 100 * time.Millisecond

func TestDo(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name string
		fn   func(context.Context) (int, error)
		want error // nil: the value 7
	}{
		{"returns", func(context.Context) (int, error) { return 7, nil }, nil},
		{"fails", func(context.Context) (int, error) { return 0, boom }, boom},
		{"panics", func(context.Context) (int, error) { panic("kaboom") }, engram.ErrPanicked},
		{"panics at run time", func(context.Context) (int, error) { var m map[string]int; m["x"]++; return 0, nil }, engram.ErrPanicked},
		{"ignores its context", func(context.Context) (int, error) { time.Sleep(300 * time.Millisecond); return 7, nil }, context.DeadlineExceeded},
		{"honours its context", func(ctx context.Context) (int, error) { <-ctx.Done(); return 0, ctx.Err() }, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hooked []error
			g := New("test plug-in", quiet, func(err error) { hooked = append(hooked, err) })
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			start := time.Now()
			v, err := Do(ctx, g, "call", tt.fn)
			if late := time.Since(start) - 100*time.Millisecond; late > slack {
				t.Errorf("returned %v past the deadline", late)
			} else if errors.Is(tt.want, context.DeadlineExceeded) {
				t.Logf("returned %v past the deadline", late)
			}
			if tt.want == nil {
				if err != nil || v != 7 {
					t.Fatalf("Do = %d, %v; want 7, nil", v, err)
				}
				if g.Failed() != 0 || len(hooked) != 0 {
					t.Fatalf("a success counted as a failure: %d, %v", g.Failed(), hooked)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Do error = %v, want one wrapping %v", err, tt.want)
			}
			if g.Failed() != 1 || len(hooked) != 1 || hooked[0] != err {
				t.Fatalf("failures %d, hooked %v; want the one error once", g.Failed(), hooked)
			}
		})
	}
}

// TestDoBoundsWhatIsLeftBehind checks that a plug-in stuck for good holds
// at most Limit goroutines, and that calls past them fail at their
// deadline.
func TestDoBoundsWhatIsLeftBehind(t *testing.T) {
	g := New("stuck plug-in", quiet, nil)
	release := make(chan struct{})
	defer close(release)
	var running atomic.Int32
	stuck := func(context.Context) (struct{}, error) {
		running.Add(1)
		<-release
		return struct{}{}, nil
	}
	for range 3 * Limit {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		start := time.Now()
		_, err := Do(ctx, g, "call", stuck)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Do error = %v, want the deadline's", err)
		}
		if d := time.Since(start); d > 5*time.Millisecond+slack {
			t.Fatalf("a call took %v", d)
		}
	}
	for deadline := time.Now().Add(time.Second); running.Load() < Limit && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond) // the last goroutines may not have started yet
	}
	if n := running.Load(); n != Limit {
		t.Fatalf("%d calls left running, want %d", n, Limit)
	}
	if g.Failed() != 3*Limit {
		t.Fatalf("%d failures counted, want %d", g.Failed(), 3*Limit)
	}
}

// TestDoDoneContext checks that a context already done calls nothing and
// counts no failure: the caller gave up, not the plug-in.
func TestDoDoneContext(t *testing.T) {
	g := New("plug-in", quiet, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	_, err := Do(ctx, g, "call", func(context.Context) (int, error) { called = true; return 0, nil })
	if !errors.Is(err, context.Canceled) || called || g.Failed() != 0 {
		t.Fatalf("Do = %v, called %v, failures %d; want Canceled, no call, none", err, called, g.Failed())
	}
}

// TestCalled checks that Called tells a call never made from one made.
func TestCalled(t *testing.T) {
	g := New("plug-in", quiet, nil)
	done, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Do(done, g, "call", func(context.Context) (int, error) { return 0, nil })
	if Called(err) {
		t.Errorf("Called(%v) = true for a done context", err)
	}
	_, err = Do(context.Background(), g, "call", func(context.Context) (int, error) { return 0, errors.New("boom") })
	if !Called(err) {
		t.Errorf("Called(%v) = false for a call made", err)
	}
}

// TestHookPanics checks that an error handler that panics is survived.
func TestHookPanics(t *testing.T) {
	g := New("plug-in", quiet, func(error) { panic("handler bug") })
	_, err := Do(context.Background(), g, "call", func(context.Context) (int, error) { return 0, errors.New("boom") })
	if err == nil || g.Failed() != 1 {
		t.Fatalf("Do = %v, failures %d", err, g.Failed())
	}
}

// TestMutexGivesUpAtTheDeadline checks that a caller waiting for a Mutex
// another holds returns at its own deadline.
func TestMutexGivesUpAtTheDeadline(t *testing.T) {
	var m Mutex
	if err := m.Lock(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := m.Lock(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Lock = %v, want the deadline's error", err)
	}
	if d := time.Since(start); d > 20*time.Millisecond+slack {
		t.Errorf("Lock gave up after %v", d)
	}
	m.Unlock()
	if err := m.Lock(context.Background()); err != nil {
		t.Fatal(err)
	}
	m.Unlock()
}
