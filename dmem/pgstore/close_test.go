package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/pgstore"
	"github.com/engram-go/engram/dmem/store"
)

// Calls racing Close fail with ErrClosed, never with the pool's own error:
// a call may pass the closed check just before Close and then find the pool
// closed.
func TestCallsRacingClose(t *testing.T) {
	ctx := context.Background()
	ns := engram.Namespace{User: fmt.Sprintf("close-%d", time.Now().UnixNano())}
	for round := range 10 {
		s := open(t, pgstore.WithExactSearch())
		if err := s.Commit(ctx, ns, []store.Op{store.Put(store.Record{Seq: 1, Route: store.RouteCore, Embedding: []float32{1, 0}})}); err != nil {
			t.Fatal(err)
		}
		calls := []func() error{
			func() error { _, err := s.Get(ctx, ns, 1); return err },
			func() error { _, err := s.Reserve(ctx, ns, 1); return err },
			func() error { _, err := s.Load(ctx, ns); return err },
			func() error { _, err := s.Query(ctx, ns, []float32{1, 0}, 3); return err },
		}
		var wg sync.WaitGroup
		errs := make(chan error, 4*len(calls))
		for i := range 4 * len(calls) {
			call := calls[i%len(calls)]
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					if err := call(); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		time.Sleep(20 * time.Millisecond)
		s.Close()
		wg.Wait()
		close(errs)
		for err := range errs {
			if !errors.Is(err, engram.ErrClosed) {
				t.Fatalf("round %d: a call racing Close failed with %v, want ErrClosed", round, err)
			}
		}
	}
}
