package tokens_test

import (
	"fmt"

	"github.com/engram-go/engram/tokens"
)

func ExampleCounter() {
	c, err := tokens.Get(tokens.CL100kBase)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Count("hello world"))
	// Output: 2
}
