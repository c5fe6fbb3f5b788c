package option_test

import (
	"context"
	"fmt"

	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
)

// One list of options builds either memory; each adds its own.
func Example() {
	ctx := context.Background()
	opts := []option.Option{option.WithTokenBudget(40), option.WithMemoryKey("chat_history")}

	buf, err := ratedistortion.New(append(opts, ratedistortion.WithExactLimit(16))...)
	if err != nil {
		panic(err)
	}
	mem, err := dmem.New(ctx, append(opts, dmem.WithShortTerm(8))...)
	if err != nil {
		panic(err)
	}
	defer mem.Close()

	fmt.Println(buf.MemoryVariables(ctx), mem.MemoryVariables(ctx))

	// One memory's own option is refused by the other.
	_, err = dmem.New(ctx, ratedistortion.WithExactLimit(16))
	fmt.Println(err)
	// Output:
	// [chat_history] [chat_history]
	// dmem: option 1 of 1, ratedistortion.WithExactLimit, is an option of ratedistortion: engram: invalid option
}
