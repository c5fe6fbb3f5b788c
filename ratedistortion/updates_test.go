package ratedistortion

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/engram-go/engram/tokens"
)

// dayClock is a clock a test moves from day to day.
type dayClock struct{ at time.Time }

func (c *dayClock) now() time.Time { return c.at }

func TestDateHeadersShowWhenFactsChanged(t *testing.T) {
	c := &dayClock{at: time.Date(2023, 5, 8, 10, 0, 0, 0, time.UTC)}
	b := newBuffer(t, WithTokenBudget(90), WithClock(c.now))
	save(t, b, "Ana: I live in Lisbon, above a bakery.", "Ben: Lovely.")
	c.at = c.at.AddDate(0, 2, 0)
	save(t, b, "Ana: We moved to Berlin, I live there now.", "Ben: Big change!")
	h := load(t, b, "Where does Ana live?")
	old := strings.Index(h, "Lisbon")
	if old < 0 || !strings.Contains(h, "Berlin") {
		t.Fatalf("both values should fit:\n%s", h)
	}
	// Each value is under the header of the day it was said.
	if i := strings.Index(h, "[8 May 2023]\n"); i < 0 || i > old {
		t.Errorf("the old value has no date header above it:\n%s", h)
	}
	if i, j := strings.Index(h, "[8 July 2023]\n"), strings.Index(h, "Berlin"); i < 0 || i > j {
		t.Errorf("the new value has no date header above it:\n%s", h)
	}
	ex, _ := b.Explain()
	if n := tokens.Default().Count(h); n != ex.Tokens || n > 90 {
		t.Errorf("history costs %d tokens, Explain says %d, budget 90", n, ex.Tokens)
	}
}

func TestNoHeadersWithinOneDay(t *testing.T) {
	b := newBuffer(t, WithTokenBudget(200))
	save(t, b, "I live in Lisbon.", "Nice.")
	save(t, b, "We moved to Berlin.", "Big change!")
	if h := load(t, b, "Where do I live?"); strings.Contains(h, "[") {
		t.Errorf("a history said within one day got a header:\n%s", h)
	}
}

func TestHeadersStayInBudget(t *testing.T) {
	c := &dayClock{at: time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)}
	counter := tokens.Default()
	for _, budget := range []int{12, 25, 40, 64, 100, 180} {
		b := newBuffer(t, WithTokenBudget(budget), WithClock(c.now))
		for i := range 30 {
			c.at = c.at.AddDate(0, 0, 1) // every turn on a day of its own
			save(t, b, fmt.Sprintf("On day %d I planted %d tulips in the garden.", i, i), "Lovely.")
		}
		h := load(t, b, "How many tulips did I plant in the garden?")
		ex, _ := b.Explain()
		if n := counter.Count(h); n > budget || n != ex.Tokens {
			t.Errorf("budget %d: history costs %d tokens, Explain says %d:\n%s", budget, n, ex.Tokens, h)
		}
	}
}

func TestDependentTurnsStayTogether(t *testing.T) {
	for _, c := range []struct{ first, then, query string }{
		{"I really like apples.", "But not green apples, they are too sour.", "Do I like apples?"},
		{"The team meeting is on Monday at 9 am.", "No, I said Tuesday at 9 am, not Monday. Sorry.", "When is the team meeting?"},
	} {
		// A budget with room for about one of the two turns and the filler
		// that competes with them.
		b := newBuffer(t, WithTokenBudget(40))
		save(t, b, c.first, "")
		save(t, b, c.then, "")
		for i := range 20 {
			save(t, b, fmt.Sprintf("Filler about %s, number %d.", strings.Fields(c.query)[2], i), "Sure.")
		}
		h := load(t, b, c.query)
		a, z := strings.Contains(h, c.first), strings.Contains(h, c.then)
		if a != z {
			t.Errorf("%q and %q were split (%v, %v):\n%s", c.first, c.then, a, z, h)
		}
		if !a {
			t.Errorf("neither %q nor %q was kept for %q:\n%s", c.first, c.then, c.query, h)
		}
		ex, _ := b.Explain()
		var kept []bool
		for _, u := range ex.Units {
			if u.Text == c.first || u.Text == c.then {
				kept = append(kept, u.Kept)
			}
		}
		if len(kept) != 2 || kept[0] != kept[1] {
			t.Errorf("Explain: %q and %q kept %v", c.first, c.then, kept)
		}
	}
}
