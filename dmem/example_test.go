package dmem_test

import (
	"context"
	"fmt"
	"log"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
)

func Example() {
	ctx := context.Background()
	m, err := dmem.New(ctx, dmem.WithTokenBudget(60)) // in memory, offline embedder
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
