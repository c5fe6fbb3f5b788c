package dmem_test

import (
	"testing"

	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/dmem/storetest"
)

// The embedded store passes the conformance suite.
func TestStoreConformance(t *testing.T) {
	dir := t.TempDir()
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := dmem.OpenStore(dir)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
