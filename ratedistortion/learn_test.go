package ratedistortion

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/engram-go/engram/gate"
	"github.com/engram-go/engram/option"
)

// In an agent-like loop — save, load, answer, save — the gate learns
// label-free that the units the conversation comes back to (facts with
// numbers and names) matter more than chatter, and corrects the scores.
func TestGateLearnsFromReferral(t *testing.T) {
	g, err := gate.New(gate.WithSeed(3))
	if err != nil {
		t.Fatal(err)
	}
	b := newBuffer(t, option.WithTokenBudget(4000), option.WithGate(g))
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
	b := newBuffer(t, option.WithTokenBudget(60), option.WithGate(g))
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
		b := newBuffer(t, option.WithTokenBudget(400), option.WithGate(g))
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

// A rating of one question's answer does not move the answers to
// questions that differ from it only in a number or a name, which word
// vectors do not see: after "desk 0" is rated up, "desk 417" is still
// answered with desk 417's line, and "Where does Brastok live?" after
// Zorvath's answer was rated, with Brastok's.
func TestRatingStaysWithItsQuestion(t *testing.T) {
	b := newBuffer(t, option.WithTokenBudget(256))
	for i := range 400 {
		save(t, b, fmt.Sprintf("Fact %d: the code of desk %d is %d.", i, i, 7000+i), "Noted.")
	}
	asks := func(d int) bool {
		return strings.Contains(load(t, b, fmt.Sprintf("What is the code of desk %d?", d)), fmt.Sprint(7000+d))
	}
	for _, d := range []int{0, 3, 217, 350} {
		if !asks(d) {
			t.Fatalf("desk %d is not in its load before any rating", d)
		}
	}
	asks(0)
	if err := b.Reward(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	for _, d := range []int{3, 217, 350} {
		if !asks(d) {
			t.Errorf("after the desk 0 answer was rated up, desk %d is not in its load:\n%s", d, load(t, b, fmt.Sprintf("What is the code of desk %d?", d)))
		}
	}
	if !asks(0) {
		t.Error("the rated question's own answer is gone")
	}

	names, cities := []string{"Zorvath", "Quillmer", "Brastok"}, []string{"Lyon", "Oslo", "Porto"}
	b = newBuffer(t, option.WithTokenBudget(64))
	for i := range 160 {
		save(t, b, fmt.Sprintf("Chatter line %d about nothing much.", i), "ok")
		if n := (i - 10) / 50; i%50 == 10 && n < len(names) {
			save(t, b, fmt.Sprintf("%s lives in %s.", names[n], cities[n]), "Noted.")
		}
	}
	lives := func(n int) bool {
		return strings.Contains(load(t, b, fmt.Sprintf("Where does %s live?", names[n])), cities[n])
	}
	for n := range names {
		if !lives(n) {
			t.Fatalf("%s is not in the load before any rating", names[n])
		}
	}
	lives(0)
	if err := b.Reward(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	for n := 1; n < len(names); n++ {
		if !lives(n) {
			t.Errorf("after %s's answer was rated up, %s's city is not in the load", names[0], names[n])
		}
	}
}
