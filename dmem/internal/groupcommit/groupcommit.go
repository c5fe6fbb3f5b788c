// Package groupcommit is a durable memory's group commit in front of a
// [store.Store]: the ops of concurrent writers share one commit, in the
// order they were queued, retried while a failure may be transient.
package groupcommit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/store"
)

// ErrStore reports that the store failed a commit even after retries; it
// wraps the store's own error. dmem.ErrStore is it.
var ErrStore = errors.New("dmem: store failed")

// backoff is how long the writer waits before each retry of a failed
// commit: four attempts in about 0.6 s ride out a dropped connection or a
// server restart, and give up before a caller's patience does.
var backoff = []time.Duration{20 * time.Millisecond, 100 * time.Millisecond, 500 * time.Millisecond}

// Writer is a group commit in front of a [store.Store]: memory operations append
// their ops in the order they happened (under Memory.mu), then wait outside
// that lock; whoever commits takes every pending op, so concurrent writers
// share one transaction and one fsync, and commits keep the memory's order.
//
// A commit that fails is retried (backoff). If it still fails, every
// call whose ops it carried fails with [ErrStore], and the writer turns
// stale: the memory already holds what those calls changed, so what it
// queues next would be built on writes the store never took. The ops
// queued meanwhile fail too, and the memory reloads from its store before
// its next write (dmem's Memory.resync). Nothing is sticky: once the fault
// clears, writes succeed again. A commit that succeeded but whose answer
// was lost (a connection dropped after COMMIT) is applied twice when
// retried: puts, deletes, evictions and the state are the same twice, term
// counts and boosts of priority count twice, which only shifts statistics.
type Writer struct {
	store   store.Store
	ns      engram.Namespace
	Backoff []time.Duration // waits between attempts

	mu    sync.Mutex // guards open and stale
	open  *Group     // the ops of the next commit; nil if none
	stale error      // why the memory must reload before it writes; nil if it need not

	commitMu sync.Mutex // held while committing
}

// Group is the ops of one commit, and how it ended.
type Group struct {
	ops  []store.Op
	done chan struct{} // closed once err is set
	err  error
}

// New returns the group commit to namespace ns of s.
func New(s store.Store, ns engram.Namespace) *Writer {
	return &Writer{store: s, ns: ns, Backoff: backoff}
}

func (g *Group) settle(err error) {
	g.err = err
	close(g.done)
}

// Add queues ops and returns the group to wait on. While the writer is
// stale the ops are not queued: they fail with the error that made it so.
func (w *Writer) Add(ops ...store.Op) *Group {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stale != nil {
		g := &Group{done: make(chan struct{})}
		g.settle(w.stale)
		return g
	}
	if w.open == nil {
		w.open = &Group{done: make(chan struct{})}
	}
	w.open.ops = append(w.open.ops, ops...)
	return w.open
}

// Stale reports whether a commit failed since the memory last reloaded.
func (w *Writer) Stale() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stale != nil
}

// Fresh clears the stale mark: the memory is about to reload. Memory.mu
// must be held, so that nothing is queued meanwhile.
func (w *Writer) Fresh() {
	w.mu.Lock()
	w.stale = nil
	w.mu.Unlock()
}

// Fail marks the writer stale with err and fails what is queued.
func (w *Writer) Fail(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stale == nil {
		w.stale = err
	}
	if w.open != nil {
		w.open.settle(err)
		w.open = nil
	}
}

// Wait returns once g is committed, committing it if no one else has, or
// the error that failed it. A nil g is committed.
func (w *Writer) Wait(ctx context.Context, g *Group) error {
	if g == nil {
		return nil
	}
	for {
		select {
		case <-g.done:
			return g.err
		default:
		}
		w.commitMu.Lock()
		select {
		case <-g.done:
			w.commitMu.Unlock()
			return g.err
		default:
		}
		w.mu.Lock()
		cur := w.open
		w.open = nil
		w.mu.Unlock()
		if cur == nil {
			// Not reached: g is not settled, so it is the open group.
			w.commitMu.Unlock()
			return fmt.Errorf("%w: the commit was lost", ErrStore)
		}
		if err := w.commit(ctx, cur.ops); err != nil {
			err = fmt.Errorf("%w: %w", ErrStore, err)
			w.Fail(err)
			cur.settle(err)
		} else {
			cur.settle(nil)
		}
		w.commitMu.Unlock()
	}
}

// commit commits ops, retrying a failure that another attempt may not
// meet. The commit itself is never abandoned half-way by the caller's
// cancellation, since other callers' ops ride on it; the waits between
// attempts are.
func (w *Writer) commit(ctx context.Context, ops []store.Op) error {
	for i := 0; ; i++ {
		err := w.store.Commit(context.WithoutCancel(ctx), w.ns, ops)
		if err == nil || i == len(w.Backoff) || !Transient(err) {
			return err
		}
		t := time.NewTimer(w.Backoff[i])
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w (retries abandoned: %w)", err, context.Cause(ctx))
		case <-t.C:
		}
	}
}

// Transient reports whether a failed commit may succeed if tried again:
// not if the store refused the ops themselves, is closed, or is damaged.
func Transient(err error) bool {
	return !errors.Is(err, engram.ErrInvalidInput) && !errors.Is(err, engram.ErrClosed) && !errors.Is(err, store.ErrCorrupt)
}
