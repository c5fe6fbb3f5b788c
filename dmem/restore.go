package dmem

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/engram-go/engram/dmem/store"
)

// restore reads the memory back from its store. The LSH tables, the eviction
// heap and the short-term buffer are rebuilt from the records.
func (m *Memory) restore(ctx context.Context) error {
	s, ns := m.w.store, m.w.ns
	snap, err := s.Load(ctx, ns)
	if err != nil {
		return fmt.Errorf("dmem: load state: %w", err)
	}
	if len(snap.State) > 0 {
		if err := m.st.decode(snap.State); err != nil {
			return fmt.Errorf("dmem: load: the state record of namespace %s in %s is damaged: %v (dmem.Salvage keeps the units without it): %w", ns, storeFile(s), err, ErrCorrupt)
		}
	}
	m.novelty.lo, m.novelty.hi = m.st.Novelty[0], m.st.Novelty[1]
	m.rpe.lo, m.rpe.hi = m.st.RPE[0], m.st.RPE[1]
	if m.novelty.lo.P == 0 {
		m.novelty, m.rpe = noveltyGate(), rewardGate()
	}
	m.loadGate()
	// A damaged record costs what it held, never the memory.
	if m.ratings.UnmarshalBinary(m.st.Ratings) != nil {
		_ = m.ratings.UnmarshalKinds(m.st.Kinds)
	}
	// Written by Close alone: the commits from here on carry the gate, not
	// this, so a crash costs the answers and standing learned since.
	m.st.Ratings = nil
	for t, n := range snap.Terms {
		m.df[termKey(t)] = uint32(min(max(n, 0), math.MaxUint32))
	}
	recount := m.st.Lines != m.opts.LinesFingerprint(false)
	m.st.Lines = m.opts.LinesFingerprint(false)
	var core, short []*unit
	err = s.Scan(ctx, ns, false, func(r store.Record) error {
		u, meta, err := fromRecord(r)
		if err != nil {
			return nil // a damaged record costs that record, never the memory
		}
		if meta != nil {
			m.meta[u.Seq] = meta
		}
		if recount {
			u.Tokens = m.opts.Counter(m.line(u.Role, u.Text))
		}
		if len(u.Embedding) != 0 && m.st.Dim == 0 {
			m.st.Dim = len(u.Embedding)
		}
		if u.Route == RouteCore {
			core = append(core, u)
		} else {
			short = append(short, u)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("dmem: load units: %w", err)
	}
	if d := unitsDim(core, short); d != 0 && d != m.st.Dim {
		// A damaged dimension would drop every unit; the units say better.
		m.opts.Logger.Warn("dmem: load: the state's embedding dimension is not the units'; keeping the units'", "namespace", ns.String(), "store", storeFile(s), "state", m.st.Dim, "units", d)
		m.st.Dim = d
	}
	if m.st.Dim > 0 {
		m.lsh = m.newLSH(m.st.Dim)
	}
	if n := len(core) + len(short); n > 0 {
		if odd := n - countDim(m.st.Dim, core, short); odd > 0 {
			m.opts.Logger.Warn("dmem: load: skipping units of another embedding dimension", "namespace", ns.String(), "store", storeFile(s), "units", odd, "dim", m.st.Dim)
		}
	}
	// In step order, core and short-term alike, as they were placed: the
	// words index reads a unit's neighbours by the order units joined it,
	// and a load after reopening weighs the turns around each unit as the
	// memory that was closed did. Not quite once units have left: the open
	// memory keeps their slots empty, and a neighbour is not reached across
	// one, until a quarter of the slots are empty; the reopened memory has
	// none, as the open one after it drops them. A neighbour across a slot
	// that emptied then weighs near where it weighed far or nothing.
	resident := slices.Concat(core, short)
	slices.SortFunc(resident, func(a, b *unit) int { return cmp.Compare(a.Seq, b.Seq) })
	for _, u := range resident {
		if len(u.Embedding) != m.st.Dim {
			delete(m.meta, u.Seq)
			continue
		}
		m.resident(u, lexisOf(u.Text))
		if u.Route == RouteCore {
			m.heap = append(m.heap, u)
			u.heapIdx = int32(len(m.heap) - 1)
		} else {
			m.short = append(m.short, u)
		}
	}
	heap.Init(&m.heap)
	err = s.Scan(ctx, ns, true, func(r store.Record) error {
		u, meta, err := fromRecord(r)
		if err != nil {
			return nil
		}
		if meta != nil {
			m.meta[u.Seq] = meta
		}
		if recount {
			u.Tokens = m.opts.Counter(m.line(u.Role, u.Text))
		}
		m.gone[u.ID] = u
		m.goneOrder = append(m.goneOrder, u.Seq)
		return nil
	})
	if err != nil {
		return fmt.Errorf("dmem: load histories: %w", err)
	}
	// Before anything is written: a store another embedder wrote is
	// refused as it is, not trimmed to this memory's caps first.
	if err := m.checkEmbedder(ctx); err != nil {
		return err
	}
	b := m.batch()
	if recount {
		// The fingerprint committed below says the stored counts are
		// current: they must be, or the next open trusts stale ones.
		for _, u := range m.byID {
			b.put(u)
		}
		for _, u := range m.gone {
			b.put(u)
		}
	}
	m.trimHistory(b)
	if len(m.short) > m.opts.shortTerm || m.heap.Len() > m.opts.MaxUnits {
		for len(m.short) > m.opts.shortTerm {
			old := m.short[0]
			m.unplace(old)
			old.Route = RouteNowhere
			m.bury(old, b)
		}
		m.evictOverflow(b)
	}
	return m.wait(ctx, m.commit(b))
}
