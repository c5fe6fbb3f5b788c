package ratedistortion

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
)

// countingHandler counts the records it is given, by level.
type countingHandler struct {
	mu     sync.Mutex
	counts map[slog.Level]int
	units  int // the "units" attributes of Info records, summed
}

func (h *countingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *countingHandler) WithGroup(string) slog.Handler            { return h }

func (h *countingHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.counts[r.Level]++
	if r.Level == slog.LevelInfo {
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "units" {
				h.units += int(a.Value.Int64())
			}
			return true
		})
	}
	return nil
}

// The pool cap logs one Info record per eviction batch, however many units
// it drops, and each unit at Debug only.
func TestPoolCapLogsOncePerEvent(t *testing.T) {
	h := &countingHandler{counts: make(map[slog.Level]int)}
	b := newBuffer(t, WithTokenBudget(200), WithMaxUnits(100), WithLogger(slog.New(h)))
	ctx := context.Background()
	events := 0
	for i := range 300 {
		before := b.dropped
		in := fmt.Sprintf("turn %d about topic %d", i, i%17)
		if err := b.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": "noted " + in}); err != nil {
			t.Fatal(err)
		}
		if b.dropped > before {
			events++
		}
	}
	if b.dropped < 300 || events == 0 {
		t.Fatalf("dropped %d units in %d events; the test needs many", b.dropped, events)
	}
	t.Logf("%d units dropped in %d cap events", b.dropped, events)
	if got := h.counts[slog.LevelInfo]; got != events {
		t.Errorf("%d Info records for %d cap events (%d units dropped)", got, events, b.dropped)
	}
	if h.units != b.dropped {
		t.Errorf("Info records report %d units dropped, the buffer %d", h.units, b.dropped)
	}
	if got := h.counts[slog.LevelDebug]; got != b.dropped {
		t.Errorf("%d Debug records for %d dropped units", got, b.dropped)
	}
}
