package store_test

import (
	"context"
	"fmt"
	"log"
	"math"
	"os"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/boltstore"
	"github.com/engram-go/engram/dmem/store"
)

// A store as dmem drives it: a commit of ops, all or none, then reads.
// Here the store is dmem's embedded one (dmem/boltstore); a store of one's own is driven
// alike, and dmem/storetest checks it.
func ExampleStore() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "store")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s, err := boltstore.Open(ctx, dir)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	ns := engram.Namespace{User: "alice"}
	seq, err := s.Reserve(ctx, ns, 2)
	if err != nil {
		log.Fatal(err)
	}
	err = s.Commit(ctx, ns, []store.Op{
		store.Put(store.Record{Seq: seq, Route: store.RouteCore, LogP: 1, Embedding: []float32{1, 0}}),
		store.Put(store.Record{Seq: seq + 1, Route: store.RouteCore, LogP: 3, Embedding: []float32{0, 1}}),
		store.Evict(1), // the lower priority goes to the eviction log
		store.Term("locker", 2),
	})
	if err != nil {
		log.Fatal(err)
	}
	hits, err := s.Query(ctx, ns, []float32{1, 1}, 5)
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		fmt.Printf("record %d, similarity %.2f\n", h.Seq, h.Similarity)
	}
	snap, err := s.Load(ctx, ns)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("locker:", snap.Terms["locker"])
	// Output:
	// record 1, similarity 0.71
	// locker: 2
}

// A priority change as every store applies it: priority 2 at step-age 0,
// doubled and raised by 1.
func ExampleNewLogP() {
	logP := store.NewLogP(math.Log2(2), 0, 2, 1, 0)
	fmt.Printf("%.3g\n", math.Exp2(logP))
	// Output: 5
}
