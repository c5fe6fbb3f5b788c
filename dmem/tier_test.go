package dmem

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/tokens"
)

func TestDemoteAndRecall(t *testing.T) {
	ctx := context.Background()
	m := newMemory(t, option.WithTokenBudget(200))
	day := time.Date(2023, 5, 8, 10, 0, 0, 0, time.UTC)
	var ds []engram.Demoted
	for i := range 40 {
		d := engram.Demoted{Unit: engram.Unit{Role: engram.RoleHuman, Time: day.Add(time.Duration(i) * time.Minute),
			Text: fmt.Sprintf("Chatter about the weather, part %d.", i)}}
		if i == 20 {
			d.Text, d.Retrieved = "My locker code is 4471.", 3
		}
		if i == 21 {
			d.Text = "It is the blue locker by the stairs."
		}
		ds = append(ds, d)
	}
	if err := m.Demote(ctx, ds); err != nil {
		t.Fatal(err)
	}
	us, err := m.Recall(ctx, "What is my locker code?", 60)
	if err != nil {
		t.Fatal(err)
	}
	var code, next bool
	for i, u := range us {
		if i > 0 && us[i-1].Seq >= u.Seq {
			t.Errorf("recalled units out of order: %d then %d", us[i-1].Seq, u.Seq)
		}
		if u.Text == "My locker code is 4471." {
			code = true
			if !u.Time.Equal(day.Add(20 * time.Minute)) {
				t.Errorf("recalled unit's time %v, want the demoted unit's", u.Time)
			}
			if _, r, err := m.Unit(u.ID); err != nil || r != RouteCore {
				t.Errorf("a unit the working tier retrieved is routed %v (%v), want core", r, err)
			}
		}
		next = next || u.Text == "It is the blue locker by the stairs."
	}
	if !code || !next {
		t.Errorf("recall missed the fact (%v) or the turn after it (%v): %+v", code, next, us)
	}
	if _, err := m.Recall(ctx, "q", 0); !errors.Is(err, engram.ErrInvalidInput) {
		t.Errorf("budget 0: %v, want ErrInvalidInput", err)
	}
	if err := m.Demote(ctx, []engram.Demoted{{Unit: engram.Unit{Text: "x"}, Reward: math.NaN()}}); !errors.Is(err, engram.ErrInvalidInput) {
		t.Errorf("NaN reward: %v, want ErrInvalidInput", err)
	}
}

func TestDateHeadersAndDependentTurns(t *testing.T) {
	together := 0
	// From 35 tokens, the statement and its correction fit together.
	for budget := 35; budget <= 90; budget += 5 {
		at := time.Date(2023, 5, 8, 10, 0, 0, 0, time.UTC)
		m := newMemory(t, option.WithTokenBudget(budget), option.WithClock(func() time.Time { return at }))
		save(t, m, "Ana: The team meeting is on Monday at 9 am.", "")
		save(t, m, "Ana: No, I said Tuesday at 9 am, not Monday.", "")
		at = at.AddDate(0, 1, 0)
		for i := range 20 {
			save(t, m, fmt.Sprintf("Ana: Lunch with the team, part %d.", i), "Ben: Sure.")
		}
		h := load(t, m, "When is the team meeting?")
		a, z := strings.Contains(h, "Monday at 9 am."), strings.Contains(h, "Tuesday at 9 am")
		if a != z {
			t.Errorf("budget %d: the statement (%v) and its correction (%v) were split:\n%s", budget, a, z, h)
		}
		if a {
			together++
			if strings.Contains(h, "part") && !strings.Contains(h, "[8 May 2023]\n") {
				t.Errorf("budget %d: a history over two days has no date header:\n%s", budget, h)
			}
		}
		if n := tokens.Default().Count(h); n > budget {
			t.Errorf("budget %d: history costs %d tokens:\n%s", budget, n, h)
		}
	}
	if together == 0 {
		t.Error("the statement and its correction were never kept")
	}
}

// A correction without a "Name:" opening attaches to its speaker's
// statement, not to the reply between them (found by review: the
// speaker was "" for both, and the reply came first).
func TestCorrectionWithoutSpeakerName(t *testing.T) {
	for budget := 45; budget <= 90; budget += 5 {
		m := newMemory(t, option.WithTokenBudget(budget))
		save(t, m, "The dentist appointment is on Monday at 10.", "Noted, the dentist appointment is Monday.")
		save(t, m, "No, I said Tuesday, not Monday.", "Sorry, Tuesday it is.")
		for i := range 6 {
			save(t, m, fmt.Sprintf("Let's talk about topic %d, gardening and weather.", i), "Sure.")
		}
		h := load(t, m, "When is the dentist appointment?")
		if strings.Contains(h, "on Monday at 10.") && !strings.Contains(h, "I said Tuesday") {
			t.Errorf("budget %d: the statement without its correction:\n%s", budget, h)
		}
	}
}

// A tool result observed after its call is kept or dropped with it.
func TestObservedToolResultStaysWithItsCall(t *testing.T) {
	for budget := 5; budget <= 80; budget += 3 {
		m := newMemory(t, option.WithTokenBudget(budget))
		for i := range 3 {
			save(t, m, fmt.Sprintf("Let's talk about topic %d, gardening and weather.", i), "Sure.")
		}
		save(t, m, "What's the weather in Lyon tomorrow?", "Let me look.")
		for _, s := range []engram.Step{{Kind: engram.StepToolCall, Text: "Calling weather(Lyon)"}, {Kind: engram.StepToolResult, Text: "weather(Lyon) → 14C, light rain"}} {
			if err := m.Observe(context.Background(), s); err != nil {
				t.Fatal(err)
			}
		}
		h := load(t, m, "weather Lyon 14C rain")
		if call, res := strings.Contains(h, "Calling"), strings.Contains(h, "light rain"); call != res {
			t.Errorf("budget %d: call %v, result %v:\n%s", budget, call, res, h)
		}
	}
}

// A working context that hands the same line down twice, each time as
// needed, gets one unit in the tier, as dmem alone merges repeats.
func TestDemotedRepeatMerges(t *testing.T) {
	m := newMemory(t)
	line := engram.Demoted{Unit: engram.Unit{Role: engram.RoleHuman, Text: "My team meets on Mondays."}, Retrieved: 2}
	for range 3 {
		if err := m.Demote(bg, []engram.Demoted{line}); err != nil {
			t.Fatal(err)
		}
	}
	other := engram.Demoted{Unit: engram.Unit{Role: engram.RoleHuman, Text: "My team meets on Tuesdays."}, Retrieved: 2}
	if err := m.Demote(bg, []engram.Demoted{other}); err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, u := range m.UnitsIn(RouteCore) {
		n[u.Text]++
	}
	if n[line.Text] != 1 || n[other.Text] != 1 {
		t.Fatalf("core units by text: %v; want the repeated line once and the other line once", n)
	}
}
