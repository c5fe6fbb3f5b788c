package boltstore_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/dmem/boltstore"
	"github.com/engram-go/engram/dmem/store"
)

// One store, opened once, shared by the memories of two users; each sees
// only its own namespace, and the record outlives them.
func ExampleOpen() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "boltstore-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s, err := boltstore.Open(ctx, dir)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close() // after the memories: they do not close what they were given

	for _, user := range []string{"alice", "bob"} {
		m, err := dmem.New(ctx, dmem.WithStore(s), dmem.WithNamespace(user, "assistant", ""))
		if err != nil {
			log.Fatal(err)
		}
		if err := m.SaveContext(ctx, map[string]any{"input": "I am " + user + "."}, map[string]any{"output": "Hello!"}); err != nil {
			log.Fatal(err)
		}
		m.Close()
	}
	n := 0
	err = s.Scan(ctx, engram.Namespace{User: "alice", Agent: "assistant"}, false, func(store.Record) error { n++; return nil })
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s; alice's namespace holds %d unit\n", s, n)
	// Output:
	// bbolt, chromem-go exact search; alice's namespace holds 1 unit
}

// A store whose file was damaged refuses to open with ErrCorrupt, naming
// the file and the damage; Salvage copies what is intact into a new store.
func ExampleSalvage() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "boltstore-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s, err := boltstore.Open(ctx, dir)
	if err != nil {
		log.Fatal(err)
	}
	var ns engram.Namespace
	for i := range 200 {
		if err := s.Commit(ctx, ns, []store.Op{store.Term(fmt.Sprintf("city%d", i), 1)}); err != nil {
			log.Fatal(err)
		}
	}
	s.Close()

	// Damage the file: wipe bbolt's two meta pages, which say where
	// everything else is.
	f, err := os.OpenFile(filepath.Join(dir, boltstore.FileName), os.O_WRONLY, 0)
	if err != nil {
		log.Fatal(err)
	}
	f.WriteAt(make([]byte, 8<<10), 0)
	f.Close()

	_, err = boltstore.Open(ctx, dir)
	var damaged *boltstore.CorruptError
	if errors.As(err, &damaged) {
		fmt.Println("damaged:", errors.Is(err, boltstore.ErrCorrupt))
		rep, err := boltstore.Salvage(ctx, dir, filepath.Join(dir, "salvaged"))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("namespaces recovered:", rep.Namespaces)
	}
	s, err = boltstore.Open(ctx, filepath.Join(dir, "salvaged"))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	fmt.Println("salvaged; it opens")
	// Output:
	// damaged: true
	// namespaces recovered: 1
	// salvaged; it opens
}
