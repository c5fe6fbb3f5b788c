package eval

import (
	"context"
	"sync"
	"time"

	"github.com/engram-go/engram/cmd/memeval/dataset"
)

// The replay's clock reads the date of the session being saved, so that a
// memory stamping its units (option.WithClock) sees
// the conversation's own time instead of the wall clock's. A Memory opts in
// by passing ReplayClock(ctx) from its New.

type clockKey struct{}

// clock holds the replay's current time; the replay moves it forward
// session by session while a memory may read it from another goroutine.
type clock struct {
	mu sync.Mutex
	at time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() {
		return time.Now()
	}
	return c.at
}

func (c *clock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = t
}

// ReplayClock returns the clock of the replay that built ctx: the date and
// time of the session whose turns are being saved, and after the last save
// that of the last session. Outside a replay, or while no session date has
// parsed, it is time.Now.
func ReplayClock(ctx context.Context) func() time.Time {
	if c, ok := ctx.Value(clockKey{}).(*clock); ok {
		return c.now
	}
	return time.Now
}

func withClock(ctx context.Context) (context.Context, *clock) {
	c := new(clock)
	return context.WithValue(ctx, clockKey{}, c), c
}

// sessionLayout is LoCoMo's session date_time, e.g. "1:56 pm on 8 May, 2023".
const sessionLayout = "3:04 pm on 2 January, 2006"

// SessionTime parses a session's date_time as LoCoMo writes it; ok is
// false for any other form.
func SessionTime(s dataset.Session) (t time.Time, ok bool) {
	t, err := time.Parse(sessionLayout, s.DateTime)
	return t, err == nil
}

// pairTimes returns, for each pair Pairs(s) yields, the time of the session
// its first turn belongs to (zero if that date does not parse).
func pairTimes(s *dataset.Sample) []time.Time {
	var at []time.Time
	for _, ss := range s.Sessions {
		t, _ := SessionTime(ss)
		for range ss.Turns {
			at = append(at, t)
		}
	}
	var out []time.Time
	for i := 0; i < len(at); i += 2 {
		out = append(out, at[i])
	}
	return out
}
