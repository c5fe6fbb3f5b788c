package dmem_test

import (
	"context"
	"fmt"
	"log"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/option"
)

func Example() {
	ctx := context.Background()
	m, err := dmem.New(ctx, option.WithTokenBudget(60)) // in memory, offline embedder
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()

	save := func(in, out string) {
		if err := m.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": out}); err != nil {
			log.Fatal(err)
		}
	}
	save("My sister Priya moved to Lisbon in March 2021.", "Lisbon in spring, lovely!")
	for range 5 {
		save("lol", "haha")
	}
	// An agent step with a large, unexpected reward goes to core memory.
	if err := m.Observe(ctx, engram.Step{Kind: engram.StepToolResult, Text: "refund API accepted batch 7731", Reward: 5}); err != nil {
		log.Fatal(err)
	}

	v, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "Where does Priya live?"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(v["history"]) // the fact and the surprise; the chit-chat stays out
	x, _ := m.ExplainUnit("u0")
	fmt.Println(x.Route, x.Gate > 0.5)
	// Output:
	// Human: My sister Priya moved to Lisbon in March 2021.
	// AI: Lisbon in spring, lovely!
	// tool: refund API accepted batch 7731
	// core true
}

// Explain reports the last load in the shape every engram memory gives:
// the candidates it weighed, which it kept and why; ExplainUnit a unit's
// life in memory.
func ExampleMemory_Explain() {
	ctx := context.Background()
	m, err := dmem.New(ctx, option.WithTokenBudget(12))
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	_ = m.SaveContext(ctx, map[string]any{"input": "Priya lives in Lisbon."}, map[string]any{"output": "Nice."})
	_ = m.SaveContext(ctx, map[string]any{"input": "I had soup for lunch."}, map[string]any{"output": "Yum."})
	if _, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "Where does Priya live?"}); err != nil {
		log.Fatal(err)
	}
	x, _ := m.Explain()
	for _, u := range x.Units {
		fmt.Printf("%s kept=%v: %s\n", u.ID, u.Kept, u.Why)
	}
	fmt.Println(x.Tokens <= x.Budget)
	// Output:
	// u0 kept=true: relevant, from core memory
	// u1 kept=true: relevant, from the short-term buffer
	// u2 kept=false: did not fit the budget
	// u3 kept=false: did not fit the budget
	// true
}
