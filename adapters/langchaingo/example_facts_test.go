package langchaingo_test

import (
	"context"
	"fmt"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/adapters/langchaingo"
	"github.com/engram-go/engram/adapters/langchaingo/memorytest"
)

// FactExtractor asks a model which facts a turn states. A fact that
// changes a known one names the known slot, so it supersedes it.
func ExampleFactExtractor() {
	llm := memorytest.NewRecorder("Facts:\n- Omar | home city | Edinburgh\n- Omar | employer | NHS Lothian")
	extract, err := langchaingo.FactExtractor(llm)
	if err != nil {
		panic(err)
	}
	known := []engram.Fact{{Subject: "Omar", Relation: "home city", Value: "Lisbon"}}
	u := engram.Unit{Role: engram.RoleHuman, Text: "Omar: we moved to Edinburgh, I'm with NHS Lothian now."}
	facts, _ := extract(context.Background(), u, known)
	for _, f := range facts {
		if old := known[0]; f.Key() == old.Key() && !f.SameValue(old) {
			fmt.Printf("%s: %s, was %s\n", f.Key(), f.Value, old.Value)
			continue
		}
		fmt.Printf("%s: %s, new\n", f.Key(), f.Value)
	}
	// Output:
	// omar|home city: Edinburgh, was Lisbon
	// omar|employer: NHS Lothian, new
}
