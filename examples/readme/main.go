// Command readme is the README's code, kept here so that it compiles: a
// langchaingo conversation chain whose memory keeps what matters under a
// hard token budget.
package main

import (
	"context"
	"fmt"
	"log"

	engramlc "github.com/engram-go/engram/adapters/langchaingo"
	"github.com/engram-go/engram/callbacks"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/memory"
	"github.com/tmc/langchaingo/tools"
)

func main() {
	ctx := context.Background()

	// Where you had memory.NewConversationTokenBuffer(llm, 1024):
	mem, err := ratedistortion.New(option.WithTokenBudget(1024))
	if err != nil {
		log.Fatal(err)
	}

	llm := fake.NewFakeLLM([]string{"Noted!", "Lisbon, you said."})
	chain := chains.NewConversation(llm, mem) // any llms.Model
	out, err := chains.Run(ctx, chain, "My sister Priya moved to Lisbon.")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
	if out, err = chains.Run(ctx, chain, "Where does Priya live?"); err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)

	// What the memory kept, what it dropped, and why.
	if x, ok := mem.Explain(); ok {
		fmt.Print(x)
	}
}

// agentWithMemory is the README's second snippet: an agent whose memory
// lasts, survives a crash and learns from the rewards its tools earn. It is
// compiled, not run: it writes a memory directory and needs a real model.
func agentWithMemory(ctx context.Context, llm llms.Model) (string, error) {
	mem, err := dmem.New(ctx, option.WithTokenBudget(1024), dmem.WithPath("agent-memory"))
	if err != nil {
		log.Fatal(err)
	}
	defer mem.Close()
	rewarder, err := callbacks.New(mem) // a langchaingo callbacks.Handler
	if err != nil {
		log.Fatal(err)
	}
	defer rewarder.Close(ctx) // deliver what is queued before the memory closes
	calculator := callbacks.WrapTool(tools.Calculator{}, rewarder)
	agent := agents.NewConversationalAgent(llm, []tools.Tool{calculator})
	// rewarder.Memory stores the tool's result between the question and the answer.
	executor := agents.NewExecutor(agent, agents.WithMemory(rewarder.Memory(mem)), agents.WithCallbacksHandler(rewarder))
	answer, err := chains.Run(ctx, executor, "What is 17 × 23?")
	return answer, err
}

// saveAndRestore is the README's third snippet: a buffer saved before a
// restart and restored after it. It is compiled, not run: it writes a file.
func saveAndRestore(ctx context.Context, mem *ratedistortion.Buffer) (*ratedistortion.Buffer, error) {
	// Before a restart: the file is replaced atomically (temp file, fsync, rename).
	if err := mem.SaveFile("memory.rd"); err != nil {
		log.Fatal(err)
	}
	var err error
	// After it: the same pool, under the options given again.
	mem, err = ratedistortion.RestoreFile(ctx, "memory.rd", option.WithTokenBudget(1024))
	return mem, err
}

// withTranscript is the README's fourth snippet: the whole transcript in a
// chat history, the prompt's share chosen by the memory.
func withTranscript() (*ratedistortion.Buffer, error) {
	history := memory.NewChatMessageHistory() // or any schema.ChatMessageHistory
	mem, err := ratedistortion.New(option.WithTokenBudget(1024), option.WithChatHistory(history))
	return mem, err
}

// twoTiers is the README's fifth snippet: the buffer as the working tier
// over D-MEM. It is compiled, not run: it writes a memory directory.
func twoTiers(ctx context.Context, llm llms.Model) (string, error) {
	longTerm, err := dmem.New(ctx, option.WithTokenBudget(1024), dmem.WithPath("agent-memory"))
	if err != nil {
		log.Fatal(err)
	}
	defer longTerm.Close()
	mem, err := ratedistortion.New(option.WithTokenBudget(1024), option.WithMaxUnits(500), ratedistortion.WithLongTerm(longTerm))
	if err != nil {
		log.Fatal(err)
	}
	return chains.Run(ctx, chains.NewConversation(llm, mem), "Where does Priya live now?")
}

// factsThatChange is the README's sixth snippet: a model reads the facts
// each saved turn states, so that a changed fact is answered with its
// newest value. Compiled, not run: every save would call the model.
func factsThatChange(ctx context.Context, llm llms.Model) (string, error) {
	extract, err := engramlc.FactExtractor(llm) // any llms.Model; one call per saved message
	if err != nil {
		log.Fatal(err)
	}
	mem, err := ratedistortion.New(option.WithTokenBudget(1024), option.WithFacts(extract))
	if err != nil {
		log.Fatal(err)
	}
	return chains.Run(ctx, chains.NewConversation(llm, mem), "Where does Priya live now?")
}

var (
	_ = factsThatChange
	_ = agentWithMemory
	_ = saveAndRestore
	_ = withTranscript
	_ = twoTiers
)
