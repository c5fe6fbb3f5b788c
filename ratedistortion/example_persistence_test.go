package ratedistortion_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
)

// A buffer saved before a restart and restored after it resumes the same
// pool: the restored one answers as the original would.
func ExampleRestore() {
	ctx := context.Background()
	mem, err := ratedistortion.New(option.WithTokenBudget(60))
	if err != nil {
		panic(err)
	}
	for _, t := range [][2]string{
		{"My sister Priya is a marine biologist in Lisbon.", "What a job!"},
		{"It rained all day.", "Same here."},
		{"Work was busy.", "Hang in there."},
	} {
		if err := mem.SaveContext(ctx, map[string]any{"input": t[0]}, map[string]any{"output": t[1]}); err != nil {
			panic(err)
		}
	}
	var file bytes.Buffer // or mem.SaveFile(path), which replaces the file atomically
	if err := mem.Save(&file); err != nil {
		panic(err)
	}

	again, err := ratedistortion.Restore(ctx, &file, option.WithTokenBudget(60))
	if err != nil {
		panic(err)
	}
	q := map[string]any{"input": "What does Priya do?"}
	before, _ := mem.LoadMemoryVariables(ctx, q)
	after, _ := again.LoadMemoryVariables(ctx, q)
	fmt.Println(again.Len(), after["history"] == before["history"])
	fmt.Println(strings.Contains(after["history"].(string), "marine biologist"))
	// Output:
	// 6 true
	// true
}
