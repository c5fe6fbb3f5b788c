// Package storetest checks that a [store.Store] behaves as D-MEM relies on,
// the way testing/slogtest checks a slog.Handler. Every store runs the
// same suite:
//
//	func TestStore(t *testing.T) {
//		dir := t.TempDir()
//		storetest.Run(t, func(t *testing.T) store.Store {
//			s, err := boltstore.Open(context.Background(), dir)
//			if err != nil {
//				t.Fatal(err)
//			}
//			return s
//		})
//	}
//
// It covers put, get, priority updates, eviction, the eviction log,
// query, scan, term counts and state, sequence reservation, namespaces
// (a property test over 100 tenants and a test of memories sharing the
// store), the facts a memory's units state ([option.WithFacts]), concurrent
// use, a memory riding out a store that fails for a while, clearing,
// closing and reopening. Namespaces are fresh per run, so a shared database need not be emptied between runs.
package storetest
