package updates_test

import (
	"fmt"

	"github.com/engram-go/engram/cmd/memeval/updates"
)

// A fact is stated, changed, and asked at the end: the answer is its last
// value, the earlier statements are stale.
func ExampleGenerate() {
	ss, err := updates.Generate(updates.Config{Seed: 7, Conversations: 1, Sessions: 6, Filler: 4})
	if err != nil {
		panic(err)
	}
	s := ss[0]
	f := s.Facts[0]
	for _, v := range f.Values {
		t, _ := s.Turn(v.DiaID)
		fmt.Printf("%s %s: %s\n", v.DiaID, t.Speaker, t.Text)
	}
	qa := s.QA[0]
	fmt.Printf("Q: %s A: %s (evidence %v, stale %v)\n", qa.Question, qa.Answer, qa.Evidence, s.Stale[0])
	// Output:
	// D1:25 Maya: I live in Lisbon, in a little flat above a bakery.
	// D4:9 Maya: We left for good; we've settled in Cape Town now.
	// D5:3 Maya: I'm writing this from our new place in Melbourne, still no curtains.
	// Q: What city is Maya's home now? A: Melbourne (evidence [D5:3], stale [D1:25 D4:9])
}
