package dmem

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
)

// agentStream feeds n routine tool results with small noisy rewards, and at
// the positions in special a step worded like the rest whose reward is
// specialReward. It returns the special steps' ids and texts.
func agentStream(t *testing.T, m *Memory, seed uint64, n int, special map[int]float64) map[string]string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 3))
	verbs := []string{"fetched", "updated", "archived", "synced", "validated", "exported"}
	objects := []string{"invoices", "orders", "tickets", "shipments", "refunds", "contacts"}
	out := map[string]string{}
	for i := range n {
		text := fmt.Sprintf("%s %s for account %d: status ok, %d rows",
			choose(r, verbs), choose(r, objects), 1000+r.IntN(9000), 1+r.IntN(50))
		reward := 0.1 + 0.05*r.NormFloat64()
		if sr, ok := special[i]; ok {
			reward = sr
		}
		if err := m.Observe(bg, engram.Step{Kind: engram.StepToolResult, Text: text, Reward: reward}); err != nil {
			t.Fatal(err)
		}
		if _, ok := special[i]; ok {
			out[idOf(m.Stats().Steps-1)] = text
		}
	}
	return out
}

// A few steps with large positive or negative surprises among thousands of
// routine ones are in core memory at the end, and come back for a query
// about them; the same steps with routine rewards are mostly forgotten.
func TestRewardRouting(t *testing.T) {
	evalOnly(t, "stream 3,000 agent steps twice")
	positions := []int{150, 700, 1200, 1650, 2300, 2900}
	run := func(surprise bool) (inCore, retrieved int) {
		m := newMemory(t, option.WithMaxUnits(300), option.WithTokenBudget(200))
		special := map[int]float64{}
		for i, p := range positions {
			special[p] = 0.1
			if surprise {
				special[p] = []float64{6, -6}[i%2]
			}
		}
		ids := agentStream(t, m, 5, 3000, special)
		for id, text := range ids {
			if _, route, err := m.Unit(id); err == nil && route == RouteCore {
				inCore++
			}
			v, err := m.LoadMemoryVariables(bg, map[string]any{"input": "what happened when we " + text[:len(text)-16] + "?"})
			if err != nil {
				t.Fatal(err)
			}
			if contains(v["history"].(string), text) {
				retrieved++
			}
		}
		if surprise {
			for id := range ids {
				x, _ := m.ExplainUnit(id)
				t.Logf("%s", x)
			}
		}
		return inCore, retrieved
	}
	core, got := run(true)
	t.Logf("surprising steps: %d/%d in core, %d/%d retrieved", core, len(positions), got, len(positions))
	if core != len(positions) || got != len(positions) {
		t.Errorf("surprising steps: %d/%d in core, %d/%d retrieved; want all", core, len(positions), got, len(positions))
	}
	core, got = run(false)
	t.Logf("same steps, routine rewards: %d/%d in core, %d/%d retrieved", core, len(positions), got, len(positions))
	if core > len(positions)/2 {
		t.Errorf("routine control: %d/%d in core; the test would not tell surprise from chance", core, len(positions))
	}
}

// Zero rewards before any other give the reward gate no scale: they must
// not send every step to core memory.
func TestZeroRewardsRouteNothing(t *testing.T) {
	with, without := newMemory(t), newMemory(t)
	for i := range 300 {
		s := engram.Step{Kind: engram.StepToolResult, Text: fmt.Sprintf("ok, step %d done", i%7)}
		for _, m := range []*Memory{with, without} {
			if err := m.Observe(bg, s); err != nil {
				t.Fatal(err)
			}
		}
		if err := with.Reward(bg, 0); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := with.Stats().Core, without.Stats().Core; a > b+2 {
		t.Fatalf("with zero rewards %d units in core, without %d", a, b)
	}
}

// Huge finite rewards saturate; the durable record stays writable.
func TestHugeRewardsStayFinite(t *testing.T) {
	m := newMemory(t, WithPath(t.TempDir()))
	for range 3 {
		if err := m.Observe(bg, engram.Step{Kind: engram.StepFinish, Text: "the deploy worked", Reward: math.MaxFloat64 / 1.5}); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Observe(bg, engram.Step{Kind: engram.StepToolResult, Text: "an ordinary step"}); err != nil {
		t.Fatalf("after huge rewards: %v", err)
	}
}

// A negative reward blames the last load's units once, not again for every
// later unrelated failure.
func TestBlameOnce(t *testing.T) {
	m := newMemory(t)
	save(t, m, "The deploy key is in the vault.", "Noted.")
	load(t, m, "where is the deploy key")
	if len(m.retrieved) == 0 {
		t.Fatal("the load returned nothing")
	}
	if err := m.Observe(bg, engram.Step{Kind: engram.StepToolError, Text: "build failed", Reward: -1}); err != nil {
		t.Fatal(err)
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if len(m.retrieved) != 0 {
		t.Fatalf("after the blame, %v still await judgement", m.retrieved)
	}
}

// deployMemory returns a memory of three lines, two of them about the
// deploy, with room for one line: what a rating of deployQuestion moves.
func deployMemory(t *testing.T) *Memory {
	t.Helper()
	m := newMemory(t, option.WithTokenBudget(14))
	save(t, m, "The deploy script lives in tools/deploy.sh.", "")
	save(t, m, "Deploy from the build host only.", "")
	save(t, m, "Lunch is at noon.", "")
	return m
}

const deployQuestion = "How do I deploy?"

// A rating is about the load it follows: asked again in the same words, an
// answer rated down makes room for what it did not show, in either order of
// an agent loop; it does not move the latest step's route.
func TestRatingMovesTheNextLoadOfTheQuestion(t *testing.T) {
	for _, saves := range []int{0, 1, 2} {
		m := deployMemory(t)
		first := load(t, m, deployQuestion)
		for i := range saves {
			save(t, m, fmt.Sprintf("Noted %d.", i), "")
		}
		rewards := m.Stats().Rewards
		if err := m.Reward(bg, -1); err != nil {
			t.Fatal(err)
		}
		moved := load(t, m, deployQuestion) != first
		if want := saves <= 1; moved != want {
			t.Errorf("%d saves between the load and its rating: the next load changed %v, want %v", saves, moved, want)
		}
		if got := m.Stats().Rewards; saves <= 1 && got != rewards {
			t.Errorf("%d saves between the load and its rating: the rating was attached to a step too", saves)
		}
	}
}

// What ratings taught of the kinds of unit that answer is kept with the
// memory's state and is there after a reopen.
func TestRatingsTaughtSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	m, err := New(bg, WithPath(dir), option.WithTokenBudget(200))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		save(t, m, fmt.Sprintf("Note %d: the deploy host is build-%d.", i, i), "Ok.")
		load(t, m, fmt.Sprintf("Which deploy host, note %d?", i))
		if err := m.Reward(bg, float64(i%2)*2-1); err != nil {
			t.Fatal(err)
		}
	}
	save(t, m, "That is all.", "Bye.") // commits the state
	f := engram.Features{Relevance: 1, Recency: 1, Tokens: 12, Role: engram.RoleHuman}
	m.mu.RLock()
	want := m.ratings.Correction(f)
	m.mu.RUnlock()
	if want == 1 {
		t.Fatal("the ratings taught nothing")
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := New(bg, WithPath(dir), option.WithTokenBudget(200))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.mu.RLock()
	got := r.ratings.Correction(f)
	r.mu.RUnlock()
	if got != want {
		t.Fatalf("after a reopen the correction is %v, want %v", got, want)
	}
}

// A step's reward that follows a load — a test run on code written from
// what the load showed — rates the load as Reward does: the next load of
// its question differs from the one after the same step unrated.
func TestObservedRewardRatesTheLoad(t *testing.T) {
	next := func(reward float64) string {
		m := deployMemory(t)
		load(t, m, deployQuestion)
		if err := m.Observe(bg, engram.Step{Kind: engram.StepToolResult, Text: "tool: tests(deploy) → 3 failed", Reward: reward}); err != nil {
			t.Fatal(err)
		}
		return load(t, m, deployQuestion)
	}
	if rated, unrated := next(-1), next(0); rated == unrated {
		t.Fatalf("a failed test run after the load did not move the next load of its question:\n%s", rated)
	}
}

// What ratings said of a unit goes with it: after many rated loads, with
// units leaving both the short-term window and core, the ledger keeps a
// standing only for units still stored.
func TestRatingsForgetUnitsThatLeave(t *testing.T) {
	m := newMemory(t, option.WithTokenBudget(200), option.WithMaxUnits(20), WithShortTerm(4))
	for i := range 400 {
		save(t, m, fmt.Sprintf("Note %d: the deploy host is build-%d.", i, i), fmt.Sprintf("Reply %d: yes, machine %d.", i, i*7))
		load(t, m, fmt.Sprintf("Which deploy host, note %d?", i))
		if err := m.Reward(bg, float64(i%2)*2-1); err != nil {
			t.Fatal(err)
		}
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if n, stored := m.ratings.Standings(), len(m.byID); n > stored {
		t.Fatalf("the ledger keeps a standing for %d units, %d are stored", n, stored)
	}
}

// As a long-term tier, the memory learns from a rating of what its Recall
// showed, as it does from a rating of its own load.
func TestRatingOfARecallTeaches(t *testing.T) {
	m := newMemory(t, option.WithTokenBudget(200))
	for i := range 6 {
		save(t, m, fmt.Sprintf("Note %d: the deploy host is build-%d.", i, i), "Ok.")
	}
	if _, err := m.Recall(bg, "Which deploy host, note 3?", 60); err != nil {
		t.Fatal(err)
	}
	if err := m.Reward(bg, 1); err != nil {
		t.Fatal(err)
	}
	f := engram.Features{Relevance: 1, Recency: 1, Tokens: 12, Role: engram.RoleHuman}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if c := m.ratings.Correction(f); c == 1 {
		t.Fatal("the rating of the recall taught nothing of the kinds of unit that answer")
	}
}

// What ratings taught whole — the answers filed under their questions, not
// only the gate — is there after Close and a reopen.
func TestRatedAnswerSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	open := func() *Memory {
		m, err := New(bg, WithPath(dir), option.WithTokenBudget(14))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := open()
	save(t, m, "The deploy script lives in tools/deploy.sh.", "")
	save(t, m, "Deploy from the build host only.", "")
	save(t, m, "Lunch is at noon.", "")
	first := load(t, m, deployQuestion)
	if err := m.Reward(bg, -1); err != nil {
		t.Fatal(err)
	}
	rated := load(t, m, deployQuestion)
	if rated == first {
		t.Fatal("the rating changed nothing")
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	r := open()
	defer r.Close()
	if got := load(t, r, deployQuestion); got != rated {
		t.Fatalf("after a reopen:\n%s\nwant, as before it:\n%s", got, rated)
	}
}
