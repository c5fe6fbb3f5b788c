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
