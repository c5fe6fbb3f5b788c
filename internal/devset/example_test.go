package devset_test

import (
	"fmt"

	"github.com/engram-go/engram/internal/devset"
)

func ExampleRead() {
	turns, qs, err := devset.Read("testdata/tiny.json")
	if err != nil {
		panic(err)
	}
	fmt.Println(turns[0])
	fmt.Println(qs[0].Text, "←", qs[0].Evidence)
	for _, l := range devset.Grow(turns, 5)[3:] {
		fmt.Println(l)
	}
	// Output:
	// Ana: I adopted a beagle called Rex.
	// What breed is Rex? ← [Ana: I adopted a beagle called Rex.]
	// Ana: I adopted a two last week. (3)
	// Ana: Rex turned old is he? (4)
}
