package dmem_test

import (
	"testing"

	"github.com/engram-go/engram"

	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/dmem/storetest"
)

// The embedded store passes the conformance suite.
func TestStoreConformance(t *testing.T) {
	dir := t.TempDir()
	storetest.Run(t, func(t *testing.T) dmem.Store {
		s, err := dmem.OpenStore(dir)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// dmem's namespace is the root package's, so both backends share one type.
var _ engram.Namespace = dmem.Namespace{}
