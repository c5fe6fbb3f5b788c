package memorytest_test

import (
	"context"
	"fmt"

	"github.com/engram-go/engram/adapters/langchaingo/memorytest"
)

// The recording fake model lets a test read the prompt a chain built.
func ExampleRecorder() {
	llm := memorytest.NewRecorder("Hi!")
	out, _ := llm.Call(context.Background(), "Hello")
	fmt.Println(out, llm.Prompts())
	// Output: Hi! [Hello]
}
