package boltstore_test

import (
	"context"
	"testing"

	"github.com/engram-go/engram/dmem/boltstore"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/dmem/storetest"
)

// The store passes the conformance suite.
func TestConformance(t *testing.T) {
	dir := t.TempDir()
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := boltstore.Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
