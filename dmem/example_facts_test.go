package dmem_test

import (
	"context"
	"fmt"
	"log"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/option"
)

func Example_facts() {
	ctx := context.Background()
	// An extractor reads the facts a unit states; a model would do it.
	// This one knows two texts.
	stated := map[string][]engram.Fact{
		"Omar: I live in Lisbon.":                  {{Subject: "Omar", Relation: "home city", Value: "Lisbon"}},
		"Omar: we relocated to Edinburgh in June.": {{Subject: "Omar", Relation: "home city", Value: "Edinburgh"}},
	}
	extract := func(_ context.Context, u engram.Unit, known []engram.Fact) ([]engram.Fact, error) {
		return stated[u.Text], nil
	}
	m, err := dmem.New(ctx, option.WithFacts(extract), option.WithTokenBudget(20))
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()

	save := func(in, out string) {
		if err := m.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": out}); err != nil {
			log.Fatal(err)
		}
	}
	save("Omar: I live in Lisbon.", "Lovely.")
	for i := range 10 {
		save(fmt.Sprintf("Omar: film night number %d was fun.", i), "Glad to hear it.")
	}
	save("Omar: we relocated to Edinburgh in June.", "Big change!")

	// The question matches the old statement's words, and the statement
	// that supersedes it comes too, with at least its score.
	v, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "Which city does Omar live in?"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(v["history"])
	r, _ := m.Explain()
	for _, u := range r.Units {
		if u.SupersededBy != "" {
			fmt.Printf("%s %q is superseded by %s\n", u.ID, u.Text, u.SupersededBy)
		}
	}
	// Output:
	// Human: Omar: I live in Lisbon.
	// Human: Omar: we relocated to Edinburgh in June.
	// u0 "Omar: I live in Lisbon." is superseded by u22
}
