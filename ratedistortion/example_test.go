package ratedistortion_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
)

// A small budget keeps the turn that answers the question, not the newest.
func ExampleBuffer() {
	ctx := context.Background()
	mem, err := ratedistortion.New(option.WithTokenBudget(60))
	if err != nil {
		panic(err)
	}
	turns := [][2]string{
		{"My sister Priya is a marine biologist in Lisbon.", "What a job!"},
		{"It rained all day.", "Same here."},
		{"I had pasta for lunch.", "Sounds good."},
		{"Work was busy.", "Hang in there."},
	}
	for _, t := range turns {
		if err := mem.SaveContext(ctx, map[string]any{"input": t[0]}, map[string]any{"output": t[1]}); err != nil {
			panic(err)
		}
	}
	vars, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": "What does Priya do?"})
	if err != nil {
		panic(err)
	}
	history := vars["history"].(string)
	fmt.Println(strings.Contains(history, "marine biologist"))
	x, _ := mem.Explain()
	fmt.Println(x.Tokens <= 60)
	// Output:
	// true
	// true
}

// Weights are the hand-set scorer; a variant that ignores recency keeps
// what answers the question even in a chatty history.
func ExampleWeights() {
	w := ratedistortion.DefaultWeights
	w.Recency = 0
	mem, err := ratedistortion.New(option.WithTokenBudget(40), ratedistortion.WithScorer(w))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	_ = mem.SaveContext(ctx, map[string]any{"input": "Our wifi password is kiwi-7731."}, map[string]any{"output": "Saved."})
	_ = mem.SaveContext(ctx, map[string]any{"input": "Nice weather today."}, map[string]any{"output": "Lovely."})
	vars, _ := mem.LoadMemoryVariables(ctx, map[string]any{"input": "what is the wifi password?"})
	fmt.Println(strings.Contains(vars["history"].(string), "kiwi-7731"))
	// Output: true
}

// Explain says, for the last load, what was kept and dropped and why, in
// the shape every engram memory gives.
func ExampleBuffer_Explain() {
	mem, _ := ratedistortion.New(option.WithTokenBudget(16))
	ctx := context.Background()
	_ = mem.SaveContext(ctx, map[string]any{"input": "Priya lives in Lisbon."}, map[string]any{"output": "Nice."})
	_ = mem.SaveContext(ctx, map[string]any{"input": "I had soup."}, map[string]any{"output": "Yum."})
	_, _ = mem.LoadMemoryVariables(ctx, map[string]any{"input": "Where does Priya live?"})
	x, _ := mem.Explain()
	for _, u := range x.Units {
		fmt.Printf("%s kept=%v: %s\n", u.ID, u.Kept, u.Why)
	}
	// Output:
	// u0 kept=true: worth its tokens, mostly for relevance
	// u1 kept=false: did not fit the budget
	// u2 kept=false: did not fit the budget
	// u3 kept=true: worth its tokens, mostly for recency
}

// ExplainSelection adds the knapsack's view: whether the selection is
// proven optimal, and each unit's features and novelty.
func ExampleSelection() {
	mem, _ := ratedistortion.New(option.WithTokenBudget(16), ratedistortion.WithSummaryShare(0))
	ctx := context.Background()
	_ = mem.SaveContext(ctx, map[string]any{"input": "Priya lives in Lisbon."}, map[string]any{"output": "Nice."})
	_ = mem.SaveContext(ctx, map[string]any{"input": "I had soup."}, map[string]any{"output": "Yum."})
	_, _ = mem.LoadMemoryVariables(ctx, map[string]any{"input": "Where does Priya live?"})
	x, _ := mem.ExplainSelection()
	for _, u := range x.Units {
		fmt.Println(u.ID, u.Kept)
	}
	fmt.Println(x.Tokens <= x.Budget, x.Exact)
	// Output:
	// u0 true
	// u1 false
	// u2 false
	// u3 true
	// true true
}
