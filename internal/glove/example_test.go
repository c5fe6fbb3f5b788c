package glove_test

import (
	"fmt"

	"github.com/engram-go/engram/internal/glove"
)

func Example() {
	fmt.Println(glove.Words("I don't know Caroline's sourdough-baking friend"))

	// Sentence embeddings are unit vectors: cosine is the dot product.
	dot := func(a, b []float32) (s float32) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	q := glove.Embed(nil, "I need to unwind after work")
	relax := glove.Embed(nil, "Baking sourdough helps me relax")
	stocks := glove.Embed(nil, "The stock market fell sharply today")
	fmt.Printf("relax %.1f, stocks %.1f\n", dot(q, relax), dot(q, stocks))

	r, _ := glove.Rank("dog")
	fmt.Printf("dog: rank %d, weight %.2f\n", r, glove.Weight("dog"))
	// Output:
	// [i do n't know caroline 's sourdough baking friend]
	// relax 0.4, stocks 0.0
	// dog: rank 2769, weight 0.79
}
