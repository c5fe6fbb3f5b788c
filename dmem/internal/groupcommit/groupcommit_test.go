package groupcommit

import (
	"context"
	"errors"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/store"
)

var bg = context.Background()

// errFire is what a failingStore's failing commits return.
var errFire = errors.New("disk on fire")

// failingStore commits nothing: while failing it fails every commit, and
// otherwise refuses the ops no store may apply, as every store does.
type failingStore struct {
	store.Store
	failing atomic.Bool
}

func (s *failingStore) Commit(_ context.Context, _ engram.Namespace, ops []store.Op) error {
	if s.failing.Load() {
		return errFire
	}
	for _, op := range ops {
		if err := op.Check(); err != nil {
			return err
		}
	}
	return nil
}

// The retries give up when the committing caller's context ends, and a
// store that refuses the ops themselves is not retried.
func TestCommitRetries(t *testing.T) {
	s := &failingStore{}
	w := New(s, engram.Namespace{})
	w.Backoff = []time.Duration{time.Hour}
	ctx, cancel := context.WithTimeout(bg, 50*time.Millisecond)
	defer cancel()
	s.failing.Store(true)
	start := time.Now()
	err := w.Wait(ctx, w.Add(store.Term("x", 1)))
	if !errors.Is(err, ErrStore) || !errors.Is(err, errFire) || time.Since(start) > 10*time.Second {
		t.Fatalf("commit with a cancelled context: %v after %v", err, time.Since(start))
	}
	if !w.Stale() {
		t.Fatal("a failed commit left the writer fresh")
	}
	w.Fresh()
	s.failing.Store(false)
	bad := store.Put(store.Record{Seq: 1, LogP: math.NaN()})
	if err := w.Wait(bg, w.Add(bad)); !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("commit of an invalid op: %v", err)
	}
	w.Fresh()
	if err := w.Wait(bg, w.Add(store.Term("x", 1))); err != nil {
		t.Fatalf("commit after: %v", err)
	}
}

// A commit is retried only while another attempt may succeed: not when
// the ops are invalid, the store is closed, or its record is damaged.
func TestTransient(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{errFire, true},
		{engram.ErrInvalidInput, false},
		{engram.ErrClosed, false},
		{store.ErrCorrupt, false},
	} {
		if got := Transient(c.err); got != c.want {
			t.Errorf("Transient(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
