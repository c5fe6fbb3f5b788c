package embed_test

import (
	"context"
	"fmt"

	"github.com/engram-go/engram/embed"
)

func ExampleEmbedder() {
	e, err := embed.New()
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	q, _ := e.EmbedQuery(ctx, "Which city did Priya move to?")
	docs, _ := e.EmbedDocuments(ctx, []string{
		"Priya moved to Lisbon last spring.",
		"The weather has been lovely all week.",
	})
	fmt.Println(embed.Cosine(q, docs[0]) > embed.Cosine(q, docs[1]))
	// Output: true
}

func ExampleWithGloVeShare() {
	// Share 0: the hashed vector alone, which sees shared wording only.
	hashed, _ := embed.New(embed.WithGloVeShare(0))
	mixed, _ := embed.New(embed.WithGloVeShare(0.5))
	for _, e := range []*embed.Embedder{hashed, mixed} {
		q := e.Embed("Does she like hiking?")
		fmt.Printf("%d dims: trail %.2f, invoice %.2f\n", e.Dimensions(),
			embed.Cosine(q, e.Embed("We walked a mountain trail")),
			embed.Cosine(q, e.Embed("The invoice is overdue")))
	}
	// Output:
	// 512 dims: trail 0.00, invoice 0.00
	// 612 dims: trail 0.24, invoice 0.03
}
