package dmem

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/internal/groupcommit"
	"github.com/engram-go/engram/dmem/internal/quantile"
	"github.com/engram-go/engram/dmem/store"
)

// writer is the memory's group commit (internal/groupcommit) to the
// namespace ns of its store.
type writer struct {
	*groupcommit.Writer
	store store.Store
	ns    engram.Namespace
}

type group = groupcommit.Group

func newWriter(s store.Store, ns engram.Namespace) *writer {
	return &writer{Writer: groupcommit.New(s, ns), store: s, ns: ns}
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
			ops = append(ops, store.Unlog(u.Seq), store.Put(u.toRecord(m.words.vector(u), m.meta[u.Seq])))
			// Another writer may have evicted it meanwhile: the put brings
			// it back, and the eviction below settles who stays.
			b.core = b.core || u.Route == RouteCore
		case buried:
			ops = append(ops, store.Delete(u.Seq), store.Log(u.toRecord(nil, m.meta[u.Seq])))
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
	return m.w.Add(ops...)
}

func (m *Memory) saveState() {
	m.saveGate()
	m.st.Kinds = m.ratings.MarshalKinds()
	m.st.Novelty = [2]quantile.Estimator{m.novelty.lo, m.novelty.hi}
	m.st.RPE = [2]quantile.Estimator{m.rpe.lo, m.rpe.hi}
}

// wait returns once the ops of t are durable, or the [ErrStore] that
// failed them.
func (m *Memory) wait(ctx context.Context, t *group) error {
	if m.w == nil || t == nil {
		return nil
	}
	if err := m.w.Wait(ctx, t); err != nil {
		return fmt.Errorf("dmem: commit: %w", err)
	}
	return nil
}
