package dmem

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/store"
)

// commitBackoff is how long the writer waits before each retry of a failed
// commit: four attempts in about 0.6 s ride out a dropped connection or a
// server restart, and give up before a caller's patience does.
var commitBackoff = []time.Duration{20 * time.Millisecond, 100 * time.Millisecond, 500 * time.Millisecond}

// writer is a group commit in front of a [store.Store]: memory operations append
// their ops in the order they happened (under Memory.mu), then wait outside
// that lock; whoever commits takes every pending op, so concurrent writers
// share one transaction and one fsync, and commits keep the memory's order.
//
// A commit that fails is retried (commitBackoff). If it still fails, every
// call whose ops it carried fails with [ErrStore], and the writer turns
// stale: the memory already holds what those calls changed, so what it
// queues next would be built on writes the store never took. The ops
// queued meanwhile fail too, and the memory reloads from its store before
// its next write ([Memory.resync]). Nothing is sticky: once the fault
// clears, writes succeed again. A commit that succeeded but whose answer
// was lost (a connection dropped after COMMIT) is applied twice when
// retried: puts, deletes, evictions and the state are the same twice, term
// counts and boosts of priority count twice, which only shifts statistics.
type writer struct {
	store   store.Store
	ns      engram.Namespace
	backoff []time.Duration // waits between attempts

	mu    sync.Mutex // guards open and stale
	open  *group     // the ops of the next commit; nil if none
	stale error      // why the memory must reload before it writes; nil if it need not

	commitMu sync.Mutex // held while committing
}

// group is the ops of one commit, and how it ended.
type group struct {
	ops  []store.Op
	done chan struct{} // closed once err is set
	err  error
}

func newWriter(s store.Store, ns engram.Namespace) *writer {
	return &writer{store: s, ns: ns, backoff: commitBackoff}
}

func (g *group) settle(err error) {
	g.err = err
	close(g.done)
}

// add queues ops and returns the group to wait on. While the writer is
// stale the ops are not queued: they fail with the error that made it so.
func (w *writer) add(ops ...store.Op) *group {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stale != nil {
		g := &group{done: make(chan struct{})}
		g.settle(w.stale)
		return g
	}
	if w.open == nil {
		w.open = &group{done: make(chan struct{})}
	}
	w.open.ops = append(w.open.ops, ops...)
	return w.open
}

// isStale reports whether a commit failed since the memory last reloaded.
func (w *writer) isStale() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stale != nil
}

// fresh clears the stale mark: the memory is about to reload. Memory.mu
// must be held, so that nothing is queued meanwhile.
func (w *writer) fresh() {
	w.mu.Lock()
	w.stale = nil
	w.mu.Unlock()
}

// fail marks the writer stale with err and fails what is queued.
func (w *writer) fail(err error) {
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

// wait returns once g is committed, committing it if no one else has, or
// the error that failed it. A nil g is committed.
func (w *writer) wait(ctx context.Context, g *group) error {
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
			w.fail(err)
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
func (w *writer) commit(ctx context.Context, ops []store.Op) error {
	for i := 0; ; i++ {
		err := w.store.Commit(context.WithoutCancel(ctx), w.ns, ops)
		if err == nil || i == len(w.backoff) || !transient(err) {
			return err
		}
		t := time.NewTimer(w.backoff[i])
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w (retries abandoned: %w)", err, context.Cause(ctx))
		case <-t.C:
		}
	}
}

// transient reports whether a failed commit may succeed if tried again:
// not if the store refused the ops themselves, is closed, or is damaged.
func transient(err error) bool {
	return !errors.Is(err, engram.ErrInvalidInput) && !errors.Is(err, engram.ErrClosed) && !errors.Is(err, ErrCorrupt)
}

// batch is the store ops one memory operation produces. m.mu must be held
// while it is filled and committed.
type batch struct {
	units map[*unit]struct{}
	terms map[string]int64 // increments
	ops   []store.Op
	core  bool // a unit entered core memory: the store enforces capacity
}

func (m *Memory) batch() *batch {
	return &batch{units: make(map[*unit]struct{}), terms: make(map[string]int64)}
}

func (b *batch) put(u *unit) { b.units[u] = struct{}{} }

func (b *batch) term(t string) { b.terms[t]++ }

// commit turns b into ops on the writer and returns the group to wait on;
// nil when in memory. Each unit is written where it now is: stored, in the
// eviction log if only its history remains, nowhere if even that was
// dropped. m.mu must be held.
func (m *Memory) commit(b *batch) *group {
	if m.w == nil {
		clear(m.dirty)
		return nil
	}
	for u := range m.dirty {
		b.units[u] = struct{}{}
	}
	clear(m.dirty)
	ops := b.ops
	for u := range b.units {
		_, stored := m.byID[u.ID]
		_, buried := m.gone[u.ID]
		switch {
		case stored:
			ops = append(ops, store.Unlog(u.Seq), store.Put(u.toRecord(true)))
			// Another writer may have evicted it meanwhile: the put brings
			// it back, and the eviction below settles who stays.
			b.core = b.core || u.Route == RouteCore
		case buried:
			ops = append(ops, store.Delete(u.Seq), store.Log(u.toRecord(false)))
		default:
			ops = append(ops, store.Delete(u.Seq), store.Unlog(u.Seq))
		}
	}
	for t, n := range b.terms {
		ops = append(ops, store.Term(t, n))
	}
	if b.core {
		// Other writers of the namespace count too.
		ops = append(ops, store.Evict(m.opts.MaxUnits))
	}
	m.saveState()
	if st, err := json.Marshal(m.st); err == nil {
		ops = append(ops, store.State(st))
	}
	return m.w.add(ops...)
}

func (m *Memory) saveState() {
	m.saveGate()
	m.st.Kinds = m.ratings.MarshalKinds()
	m.st.Novelty = [2]quantile{m.novelty.lo, m.novelty.hi}
	m.st.RPE = [2]quantile{m.rpe.lo, m.rpe.hi}
}

// wait returns once the ops of t are durable, or the [ErrStore] that
// failed them.
func (m *Memory) wait(ctx context.Context, t *group) error {
	if m.w == nil || t == nil {
		return nil
	}
	if err := m.w.wait(ctx, t); err != nil {
		return fmt.Errorf("dmem: commit: %w", err)
	}
	return nil
}
