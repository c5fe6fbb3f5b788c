package dmem

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// errStoreFailed marks a memory whose store refused a commit: what it holds
// in memory may no longer match its record, so it takes no more writes.
var errStoreFailed = errors.New("dmem: store failed")

// writer is a group commit in front of a [Store]: memory operations append
// their ops in the order they happened (under Memory.mu), then wait outside
// that lock; whoever commits takes every pending op, so concurrent writers
// share one transaction and one fsync, and commits keep the memory's order.
type writer struct {
	store Store
	ns    Namespace

	mu      sync.Mutex // guards pending, queued, err
	pending []Op
	queued  uint64 // ticket of the latest op batch appended
	err     error  // sticky: the first failed commit

	commitMu sync.Mutex // held while committing; guards done
	done     uint64     // tickets up to done are committed
}

// add queues ops and returns a ticket to wait on. Once a commit has failed
// the ops are dropped, not queued: they would never be committed, and
// waiting on the ticket returns the failure.
func (w *writer) add(ops ...Op) uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.pending = append(w.pending, ops...)
	}
	w.queued++
	return w.queued
}

// failed returns the error of the commit that failed, nil if none has.
func (w *writer) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// wait returns once ticket t is committed, committing it if no one else has.
func (w *writer) wait(ctx context.Context, t uint64) error {
	w.commitMu.Lock()
	defer w.commitMu.Unlock()
	if w.done >= t {
		return nil
	}
	w.mu.Lock()
	if w.err != nil {
		w.mu.Unlock()
		return w.err
	}
	ops, upto := w.pending, w.queued
	w.pending = nil
	w.mu.Unlock()
	// The commit must not be abandoned half-way by a caller's cancellation:
	// later tickets depend on it.
	if err := w.store.Commit(context.WithoutCancel(ctx), w.ns, ops); err != nil {
		err = fmt.Errorf("%w: %w", errStoreFailed, err)
		w.mu.Lock()
		w.err = err
		w.pending = nil // what was queued meanwhile will never commit either
		w.mu.Unlock()
		return err
	}
	w.done = upto
	return nil
}
