package ratedistortion_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/engram-go/engram/ratedistortion"
)

// A small budget keeps the turn that answers the question, not the newest.
func ExampleBuffer() {
	ctx := context.Background()
	mem, err := ratedistortion.New(ratedistortion.WithTokenBudget(60))
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
