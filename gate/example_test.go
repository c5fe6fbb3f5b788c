package gate_test

import (
	"context"
	"fmt"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/gate"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
)

// A gate learns from hindsight which units are worth keeping, and
// ratedistortion uses it as its scorer.
func ExampleGate() {
	g, err := gate.New(gate.WithSeed(1))
	if err != nil {
		panic(err)
	}
	// Hindsight: units with names and dates were referred back to later,
	// chit-chat was not.
	fact := engram.Features{Relevance: 0.7, Tokens: 18, Flags: engram.FlagName | engram.FlagDate}
	chat := engram.Features{Relevance: 0.1, Tokens: 9, Role: engram.RoleAI}
	for range 20 {
		g.Observe(fact, 1)
		g.Observe(chat, 0)
	}
	fmt.Println(g.Score(fact) > 0.9, g.Score(chat) < 0.1)
	parts := g.Contributions(fact)
	fmt.Println(parts["name"] > 0)

	mem, err := ratedistortion.New(option.WithTokenBudget(60), ratedistortion.WithScorer(g))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	_ = mem.SaveContext(ctx, map[string]any{"input": "My sister Priya moved to Lisbon in May."}, map[string]any{"output": "Lovely!"})
	_ = mem.SaveContext(ctx, map[string]any{"input": "Ok."}, map[string]any{"output": "Sure."})
	if _, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": "Where does Priya live?"}); err != nil {
		panic(err)
	}
	// After the agent acts on what was loaded and is rewarded, every unit
	// the load kept learns from the reward.
	x, _ := mem.Explain()
	for _, u := range x.Units {
		if u.Kept {
			g.Hindsight(u.Features, 1)
		}
	}
	data, _ := g.MarshalBinary()
	fmt.Println(len(data) <= 4096)
	// Output:
	// true true
	// true
	// true
}

// A gate corrects hand-set weights: untrained it changes nothing; trained
// on what was later needed, it raises units like those.
func ExamplePrior() {
	g, err := gate.New()
	if err != nil {
		panic(err)
	}
	base := engram.ScorerFunc(func(f engram.Features) float64 { return f.Relevance })
	scorer := gate.Prior{Base: base, Gate: g}
	fact := engram.Features{Relevance: 0.5, Flags: engram.FlagName | engram.FlagDate}
	chatter := engram.Features{Relevance: 0.5}
	fmt.Printf("untrained: %.2f %.2f\n", scorer.Score(fact), scorer.Score(chatter))
	for range 50 {
		g.Observe(fact, 1)
		g.Observe(chatter, 0)
	}
	fmt.Println("trained, the fact outranks the chatter:", scorer.Score(fact) > scorer.Score(chatter))
	// Output:
	// untrained: 0.50 0.50
	// trained, the fact outranks the chatter: true
}
