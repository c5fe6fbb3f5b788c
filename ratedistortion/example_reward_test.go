package ratedistortion_test

import (
	"context"
	"fmt"

	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
)

// A user rates an answer down: asked again, the memory shows what it left
// out the first time.
func ExampleBuffer_Reward() {
	ctx := context.Background()
	// Room for one of the two lines about the deploy.
	mem, err := ratedistortion.New(option.WithTokenBudget(14))
	if err != nil {
		panic(err)
	}
	for _, s := range []string{
		"The deploy script lives in tools/deploy.sh.",
		"Deploy from the build host only.",
		"Lunch is at noon.",
	} {
		if err := mem.SaveContext(ctx, map[string]any{"input": s}, map[string]any{"output": ""}); err != nil {
			panic(err)
		}
	}
	ask := func() string {
		vars, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": "How do I deploy?"})
		if err != nil {
			panic(err)
		}
		return vars["history"].(string)
	}
	fmt.Println(ask())
	// The answer missed what the user needed; callbacks.Rewarder.Feedback
	// delivers a rating the same way.
	if err := mem.Reward(ctx, -1); err != nil {
		panic(err)
	}
	fmt.Println(ask())
	// Output:
	// Human: Deploy from the build host only.
	// Human: The deploy script lives in tools/deploy.sh.
}
