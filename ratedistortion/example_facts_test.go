package ratedistortion_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
)

// With a fact extractor, a question that matches an old statement is
// answered with the one that superseded it, though that shares no word
// with the question. The extractor here knows two sentences; a real one
// asks a model (adapters/langchaingo.FactExtractor).
func Example_facts() {
	ctx := context.Background()
	known := map[string]engram.Fact{
		"I live in Lisbon, above a bakery.":     {Subject: "user", Relation: "home city", Value: "Lisbon"},
		"We relocated to Edinburgh last month.": {Subject: "user", Relation: "home city", Value: "Edinburgh"},
	}
	extract := func(_ context.Context, u engram.Unit, _ []engram.Fact) ([]engram.Fact, error) {
		if f, ok := known[u.Text]; ok {
			return []engram.Fact{f}, nil
		}
		return nil, nil
	}
	mem, err := ratedistortion.New(option.WithTokenBudget(30), option.WithFacts(extract))
	if err != nil {
		panic(err)
	}
	turns := [][2]string{
		{"I live in Lisbon, above a bakery.", "Lovely."},
		{"The marathon training is going well.", "Keep it up!"},
		{"I finished a novel about whales.", "Which one?"},
		{"We relocated to Edinburgh last month.", "Big change!"},
		{"My knee hurts after the long run.", "Rest it."},
	}
	for _, t := range turns {
		if err := mem.SaveContext(ctx, map[string]any{"input": t[0]}, map[string]any{"output": t[1]}); err != nil {
			panic(err)
		}
	}
	vars, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": "Which city do I live in?"})
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.Contains(vars["history"].(string), "Edinburgh"))
	x, _ := mem.Explain()
	for _, u := range x.Units {
		if u.SupersededBy != "" {
			fmt.Printf("%q superseded by %s\n", u.Text, u.SupersededBy)
		}
	}
	// Output:
	// true
	// "I live in Lisbon, above a bakery." superseded by u6
}
