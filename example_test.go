package engram_test

import (
	"fmt"

	"github.com/engram-go/engram"
)

// A Scorer turns a unit's features into utility; ScorerFunc adapts a plain
// function, such as one that values relevance and anything holding a date.
func ExampleScorerFunc() {
	s := engram.ScorerFunc(func(f engram.Features) float64 {
		u := f.Relevance
		if f.Flags.Has(engram.FlagDate) {
			u += 0.5
		}
		return u
	})
	fmt.Println(s.Score(engram.Features{Relevance: 0.2, Flags: engram.FlagDate | engram.FlagName}))
	// Output: 0.7
}

func ExampleFlags() {
	f := engram.FlagName | engram.FlagNumber | engram.FlagPinned
	fmt.Println(f.Has(engram.FlagName), f.Has(engram.FlagDate), f.Count())
	// Output: true false 2
}

func ExampleNamespace() {
	ns := engram.Namespace{User: "ada", Agent: "support", Session: "2026-11-29"}
	fmt.Println(ns, ns.Valid(), engram.Namespace{User: "bad\x00"}.Valid())
	// Output: "ada"/"support"/"2026-11-29" true false
}

func ExampleStepKind() {
	s := engram.Step{Kind: engram.StepToolError, Text: "weather(Lyon): timeout", Reward: -1}
	fmt.Println(s.Kind, engram.RoleToolResult)
	// Output: tool_error tool_result
}

// A LoadReport is what either memory's Explain returns; its String lists
// the kept units and the most useful dropped ones.
func ExampleLoadReport() {
	r := engram.LoadReport{Query: "Where does Priya live?", Budget: 12, Tokens: 9, Units: []engram.UnitReport{
		{ID: "u0", Role: engram.RoleHuman, Text: "Priya lives in Lisbon.", Tokens: 9, Kept: true, Relevance: 1.2, Utility: 0.9, Why: "relevant"},
		{ID: "u1", Seq: 1, Role: engram.RoleAI, Text: "Nice.", Tokens: 4, Utility: 0.1, Why: "did not fit the budget"},
	}}
	fmt.Print(r)
	// Output:
	// query "Where does Priya live?": 9/12 tokens, kept 1 of 2 units
	//   kept    u0 human tok=9 util=0.900 rel=1.20 relevant: "Priya lives in Lisbon."
	//   dropped u1 ai    tok=4 util=0.100 rel=0.00 did not fit the budget: "Nice."
}
