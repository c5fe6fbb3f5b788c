package ratedistortion_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
)

// A buffer capped at 20 units over D-MEM: the early fact left the pool
// long ago, and the load brings it back from the long-term tier.
func ExampleWithLongTerm() {
	ctx := context.Background()
	longTerm, err := dmem.New(ctx, option.WithTokenBudget(80))
	if err != nil {
		log.Fatal(err)
	}
	defer longTerm.Close()
	mem, err := ratedistortion.New(option.WithTokenBudget(80), option.WithMaxUnits(20),
		ratedistortion.WithLongTerm(longTerm))
	if err != nil {
		log.Fatal(err)
	}
	save := func(in, out string) {
		if err := mem.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": out}); err != nil {
			log.Fatal(err)
		}
	}
	save("Our dog is called Biscuit.", "What a name!")
	for i := range 30 {
		save(fmt.Sprintf("The quarterly report, part %d, is done.", i), "Good.")
	}
	v, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": "What is the dog called?"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.Contains(v["history"].(string), "Biscuit"))
	x, _ := mem.Explain()
	for _, u := range x.Units {
		if u.Kept && u.Tier == engram.TierLongTerm && strings.Contains(u.Text, "Biscuit") {
			fmt.Println("from the", u.Tier, "tier:", u.Text)
		}
	}
	// Output:
	// true
	// from the long-term tier: Our dog is called Biscuit.
}
