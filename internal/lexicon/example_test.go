package lexicon_test

import (
	"fmt"

	"github.com/engram-go/engram/internal/lexicon"
	"github.com/engram-go/engram/internal/text"
)

func Example() {
	// Keys are stems, as text.Terms produces them.
	for _, pair := range [][2]string{
		{"sofa", "couch"},     // one synset
		{"dad", "father"},     // a word and its hypernym
		{"dog", "cat"},        // co-hyponyms: a distant shared ancestor
		{"father", "weather"}, // unrelated
	} {
		s := lexicon.Similarity(text.Stem(pair[0]), text.Stem(pair[1]))
		fmt.Printf("%s/%s %.1f\n", pair[0], pair[1], s)
	}
	fmt.Println(len(lexicon.Concepts(text.Stem("children"))) > 0)
	// Output:
	// sofa/couch 0.8
	// dad/father 0.5
	// dog/cat 0.0
	// father/weather 0.0
	// true
}

func ExampleKinds() {
	for _, w := range []string{"pharmacist", "puppy", "boston", "hiking", "xyzzy"} {
		k := lexicon.Kinds(text.Stem(w))
		fmt.Printf("%s %v %t\n", w, k, k&(lexicon.KindPerson|lexicon.KindLocation) != 0)
	}
	// Output:
	// pharmacist noun.person true
	// puppy noun.animal false
	// boston noun.location true
	// hiking noun.act|verb.motion false
	// xyzzy  false
}
