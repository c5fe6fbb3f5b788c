package ratedistortion

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
)

// countingHandler counts the records it is given, by level.
type countingHandler struct {
	mu     sync.Mutex
	counts map[slog.Level]int
	events int // the records of one cap event each
	units  int // their "units" attributes, summed
}

func (h *countingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *countingHandler) WithGroup(string) slog.Handler            { return h }

func (h *countingHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.counts[r.Level]++
	if strings.HasPrefix(r.Message, "ratedistortion: pool cap: dropped units") ||
		strings.HasPrefix(r.Message, "ratedistortion: pool cap: handed units down") {
		h.events++
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "units" {
				h.units += int(a.Value.Int64())
			}
			return true
		})
	}
	return nil
}

// The pool cap is routine: it logs one Debug record per eviction batch,
// however many units it drops, and each unit at Debug too; nothing at Info
// or above, so that the default logger prints nothing as a capped buffer
// runs, whether it drops units or hands them down to a long-term tier.
func TestPoolCapLogsAtDebug(t *testing.T) {
	for _, tier := range []bool{false, true} {
		t.Run(fmt.Sprintf("long-term=%v", tier), func(t *testing.T) {
			h := &countingHandler{counts: make(map[slog.Level]int)}
			opts := []Option{option.WithTokenBudget(200), option.WithMaxUnits(100), option.WithLogger(slog.New(h))}
			if tier {
				opts = append(opts, WithLongTerm(&fakeTier{}))
			}
			b := newBuffer(t, opts...)
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
			for l, n := range h.counts {
				if l >= slog.LevelInfo {
					t.Errorf("%d records at %v: a capped buffer's routine work logs at Debug", n, l)
				}
			}
			if h.events != events {
				t.Errorf("%d cap records for %d cap events (%d units dropped)", h.events, events, b.dropped)
			}
			if h.units != b.dropped {
				t.Errorf("cap records report %d units dropped, the buffer %d", h.units, b.dropped)
			}
			// One record per unit, one per event, and, with a tier, one per
			// hand-down.
			if got := h.counts[slog.LevelDebug]; got < b.dropped+events {
				t.Errorf("%d Debug records for %d dropped units in %d events", got, b.dropped, events)
			}
		})
	}
}

// The pool cap letting an older observed tool call go does not part the
// newest observed call from its result: both are filed under the one id
// Observe gives calls, and what the cap forgets is the older call's
// filing only.
func TestCapKeepsTheNewestObservedCallWithItsResult(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t, option.WithMaxUnits(4), WithLongTerm(&fakeTier{}), option.WithTokenBudget(14), quiet)
	for _, s := range []engram.Step{{Kind: engram.StepToolCall, Text: "weather(Lyon)"}, {Kind: engram.StepToolResult, Text: "14C in Lyon"}} {
		if err := b.Observe(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	save(t, b, "thanks, what about stocks", "sure")
	for _, s := range []engram.Step{{Kind: engram.StepToolCall, Text: "stock(ACME)"}, {Kind: engram.StepToolResult, Text: "ACME at 42 dollars"}} {
		if err := b.Observe(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	var call, result engram.Unit
	for _, u := range b.Units() {
		switch u.Text {
		case "stock(ACME)":
			call = u
		case "ACME at 42 dollars":
			result = u
		}
	}
	if call.ID == "" || result.ID == "" || call.Group != result.Group {
		t.Fatalf("the call %s is in group %d, its result %s in group %d", call.ID, call.Group, result.ID, result.Group)
	}
	if h := load(t, b, "ACME"); strings.Contains(h, "42 dollars") && !strings.Contains(h, "stock(ACME)") {
		t.Errorf("the load shows the result without its call:\n%s", h)
	}
}
