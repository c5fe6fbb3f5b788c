package ratedistortion

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/engram-go/engram/gate"
)

// In an agent-like loop — save, load, answer, save — the gate learns
// label-free that the units the conversation comes back to (facts with
// numbers and names) matter more than chatter, and corrects the scores.
func TestGateLearnsFromReferral(t *testing.T) {
	g, err := gate.New(gate.WithSeed(3))
	if err != nil {
		t.Fatal(err)
	}
	b := newBuffer(t, WithTokenBudget(4000), WithGate(g))
	code := func(i int) string { return fmt.Sprintf("%04d", 1000+37*i) }
	moods := []string{"sunny", "rainy", "windy", "foggy", "muggy", "chilly", "stormy", "balmy"}
	for i := range 40 {
		save(t, b, fmt.Sprintf("Note that locker %d has code %s, Priya set it.", i, code(i)), "Noted.")
		save(t, b, "lol the weather is "+moods[i%len(moods)]+" again", "haha yes")
		load(t, b, "anything new?")
		// The next turn comes back to an earlier fact, never to the chatter.
		save(t, b, "Thanks, "+code(i/2)+" worked.", "Great.")
	}
	load(t, b, "anything?")
	x, _ := b.ExplainSelection()
	var fact, chatter float64
	for _, u := range x.Units {
		switch {
		case strings.Contains(u.Text, "has code") && fact == 0:
			fact = g.Score(u.Features)
		case strings.Contains(u.Text, "weather") && chatter == 0:
			chatter = g.Score(u.Features)
		}
	}
	t.Logf("gate score after training: fact %.3f, chatter %.3f", fact, chatter)
	if !(fact > 0.5 && fact > 2*chatter) {
		t.Fatalf("gate score: fact %.3g, chatter %.3g; want the fact well above", fact, chatter)
	}
	if x.Units[0].Parts["prior"] == 0 {
		t.Fatal("Explain should show the gate's correction of the prior")
	}
}

func TestGateLearnsFromReward(t *testing.T) {
	g, err := gate.New()
	if err != nil {
		t.Fatal(err)
	}
	b := newBuffer(t, WithTokenBudget(60), WithGate(g))
	ctx := context.Background()
	save(t, b, "The deploy script is tools/deploy.sh", "ok")
	load(t, b, "how do I deploy?")
	before := g.Weights()
	if err := b.Reward(ctx, 1); err != nil {
		t.Fatal(err)
	}
	after := g.Weights()
	changed := false
	for k, v := range after {
		changed = changed || v != before[k]
	}
	if !changed {
		t.Fatal("a reward after a load did not train the gate")
	}
}

// A word both sides of a turn repeat still refers back: rarity is judged on
// the pool before the turn, not counting the turn's own messages.
func TestReferralRepeatedByBothSides(t *testing.T) {
	label := func(reply string) float64 {
		g, err := gate.New(gate.WithSeed(5))
		if err != nil {
			t.Fatal(err)
		}
		b := newBuffer(t, WithTokenBudget(400), WithGate(g))
		save(t, b, "My sister Priya lives in Lisbon.", "Nice.")
		load(t, b, "tell me about family")
		x, _ := b.ExplainSelection()
		save(t, b, "Is Lisbon sunny?", reply)
		for _, u := range x.Units {
			if strings.Contains(u.Text, "Priya") {
				return g.Score(u.Features)
			}
		}
		t.Fatal("the load did not keep the fact")
		return 0
	}
	once, twice := label("Yes."), label("Lisbon is sunny in summer.")
	if twice < 0.5 || twice < once-0.05 {
		t.Fatalf("gate score %.3f when only the human says Lisbon, %.3f when both do: both refer back", once, twice)
	}
}
