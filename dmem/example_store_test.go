package dmem_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/dmem/boltstore"
	"github.com/tmc/langchaingo/schema"
)

// One store, two users: each memory sees only its own namespace.
func ExampleWithNamespace() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "dmem")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	shared, err := boltstore.Open(ctx, dir) // bbolt, with chromem-go as the index
	if err != nil {
		log.Fatal(err)
	}
	defer shared.Close() // after the memories: they do not close what they were given

	open := func(user string) *dmem.Memory {
		m, err := dmem.New(ctx, dmem.WithStore(shared), dmem.WithNamespace(user, "assistant", ""))
		if err != nil {
			log.Fatal(err)
		}
		return m
	}
	alice, bob := open("alice"), open("bob")
	defer alice.Close()
	defer bob.Close()
	if _, err := alice.AddDocuments(ctx, []schema.Document{{PageContent: "My locker code is 4471."}}); err != nil {
		log.Fatal(err)
	}
	if _, err := bob.AddDocuments(ctx, []schema.Document{{PageContent: "My locker code is 9902."}}); err != nil {
		log.Fatal(err)
	}
	for _, m := range []*dmem.Memory{alice, bob} {
		docs, err := m.SimilaritySearch(ctx, "locker code", 5)
		if err != nil {
			log.Fatal(err)
		}
		for _, d := range docs {
			fmt.Println(d.PageContent)
		}
	}
	fmt.Println(alice.Stats().Store)
	// Output:
	// My locker code is 4471.
	// My locker code is 9902.
	// bbolt, chromem-go exact search
}
