// Command readme is the README's code, kept here so that it compiles: a
// langchaingo conversation chain whose memory keeps what matters under a
// hard token budget.
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms/fake"
)

func main() {
	ctx := context.Background()

	// Where you had memory.NewConversationTokenBuffer(llm, 1024):
	mem, err := ratedistortion.New(ratedistortion.WithTokenBudget(1024))
	if err != nil {
		log.Fatal(err)
	}

	llm := fake.NewFakeLLM([]string{"Noted!", "Lisbon, you said."}) // any llms.Model
	chain := chains.NewConversation(llm, mem)
	for _, say := range []string{"My sister Priya moved to Lisbon.", "Where does Priya live?"} {
		out, err := chains.Run(ctx, chain, say)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(out)
	}

	// What the memory kept, what it dropped, and why.
	if x, ok := mem.Explain(); ok {
		fmt.Print(x)
	}
}
