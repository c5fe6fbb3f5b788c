package boltstore

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"slices"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/internal/vecindex"
	"github.com/engram-go/engram/dmem/store"
	bolt "go.etcd.io/bbolt"
)

// coreChange is a staged change to a space's core set.
type coreChange struct {
	present bool
	logP    float64
	reindex bool      // the vector changed, or the record entered core
	vec     []float32 // to index, when present
}

// staged is what one commit changes in a space's memory, applied once the
// transaction has committed.
type staged struct {
	logger  *slog.Logger // the store's
	sp      *space
	cleared bool
	changes map[int64]coreChange
	n       int // core records after the commit
}

func (st *staged) get(seq int64) (float64, bool) {
	if c, ok := st.changes[seq]; ok {
		return c.logP, c.present
	}
	if st.cleared {
		return 0, false
	}
	p, ok := st.sp.core[seq]
	return p, ok
}

func (st *staged) set(seq int64, c coreChange) {
	_, was := st.get(seq)
	if prev, ok := st.changes[seq]; ok && prev.reindex && c.present && !c.reindex {
		c.reindex, c.vec = true, prev.vec // a priority change after a put in one commit
	}
	switch {
	case was && !c.present:
		st.n--
	case !was && c.present:
		st.n++
	}
	st.changes[seq] = c
}

// Commit implements [store.Store]: one bbolt transaction, synced before
// it returns unless durability is relaxed ([WithSyncEvery]).
func (s *Store) Commit(ctx context.Context, ns engram.Namespace, ops []store.Op) error {
	for _, op := range ops {
		if err := op.Check(); err != nil {
			return fmt.Errorf("boltstore: commit: %w", err)
		}
	}
	if err := checkNS(ns); err != nil {
		return err
	}
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	if err := s.check(ctx); err != nil {
		return err
	}
	sp, err := s.spaceFor(ns)
	if err != nil {
		return err
	}
	st := &staged{logger: s.logger, sp: sp, changes: make(map[int64]coreChange), n: len(sp.core)}
	err = s.write(func(tx *bolt.Tx) error {
		b, err := spaceBucket(tx, sp.key)
		if err != nil {
			return err
		}
		for _, op := range ops {
			if b, err = apply(tx, b, sp.key, st, op); err != nil {
				return err
			}
		}
		if sp.nextDirty || st.cleared {
			return b.Bucket(metaBucket).Put(nextKey, binary.BigEndian.AppendUint64(nil, uint64(sp.next)))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("boltstore: commit to %s: %w", s.path, err)
	}
	sp.nextDirty = false
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.cleared {
		clear(sp.core)
		sp.ix = make(map[int]*vecindex.Index)
	}
	for seq, c := range st.changes {
		if !c.reindex && c.present {
			sp.core[seq] = c.logP // a priority change: the vector stays
			continue
		}
		for _, ix := range sp.ix {
			_ = ix.Remove(context.Background(), seqID(seq)) // deleting by id cannot fail
		}
		if !c.present {
			delete(sp.core, seq)
			continue
		}
		sp.core[seq] = c.logP
		if !vecindex.Zero(c.vec) {
			_ = sp.index(len(c.vec)).Add(context.Background(), seqID(seq), c.vec) // only fails on an empty id or vector
		}
	}
	return nil
}

// spaceBucket returns the namespace's bucket, creating it.
func spaceBucket(tx *bolt.Tx, key []byte) (*bolt.Bucket, error) {
	b, err := tx.Bucket(rootBucket).CreateBucketIfNotExists(key)
	if err != nil {
		return nil, err
	}
	for _, name := range [...][]byte{unitsBucket, logBucket, termsBucket, metaBucket} {
		if _, err := b.CreateBucketIfNotExists(name); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// applyBolt applies one op; it returns the namespace's bucket, which
// OpClear replaces.
func apply(tx *bolt.Tx, b *bolt.Bucket, key []byte, st *staged, op store.Op) (*bolt.Bucket, error) {
	units, log := b.Bucket(unitsBucket), b.Bucket(logBucket)
	k := seqKey(op.Seq)
	switch op.Kind {
	case store.OpPut:
		r := op.Record
		k = seqKey(r.Seq)
		if old := units.Get(k); old != nil {
			if o, err := decodeRecord(k, old); err == nil {
				r.LogP = o.LogP
			}
		}
		if r.Route == store.RouteCore {
			st.set(r.Seq, coreChange{present: true, logP: r.LogP, reindex: true, vec: r.Embedding})
		} else {
			st.set(r.Seq, coreChange{})
		}
		return b, units.Put(k, encodeRecord(r))
	case store.OpDelete:
		st.set(op.Seq, coreChange{})
		return b, units.Delete(k)
	case store.OpLog:
		r := op.Record
		r.Embedding = nil
		return b, log.Put(seqKey(r.Seq), encodeRecord(r))
	case store.OpUnlog:
		return b, log.Delete(k)
	case store.OpPriority:
		v := units.Get(k)
		if v == nil {
			return b, nil
		}
		r, err := decodeRecord(k, v)
		if err != nil {
			return b, nil
		}
		r.LogP = store.NewLogP(r.LogP, op.At, op.Mul, op.Add, op.Min)
		if r.Route == store.RouteCore {
			st.set(r.Seq, coreChange{present: true, logP: r.LogP})
		}
		return b, units.Put(k, encodeRecord(r))
	case store.OpEvict:
		return b, evict(units, log, st, op.Capacity)
	case store.OpTerm:
		if op.Term == "" {
			return b, nil // bbolt refuses empty keys; an empty term carries nothing
		}
		tb := b.Bucket(termsBucket)
		var n int64
		if v := tb.Get([]byte(op.Term)); v != nil {
			n, _ = binary.Varint(v)
		}
		return b, tb.Put([]byte(op.Term), binary.AppendVarint(nil, n+op.N))
	case store.OpState:
		return b, b.Bucket(metaBucket).Put(stateKey, op.State)
	case store.OpClear:
		if err := tx.Bucket(rootBucket).DeleteBucket(key); err != nil {
			return nil, err
		}
		st.cleared, st.changes, st.n = true, make(map[int64]coreChange), 0
		return spaceBucket(tx, key)
	}
	return b, fmt.Errorf("unknown op %d", op.Kind)
}

// evictBolt moves the lowest-priority core records to the log until at
// most capacity remain.
func evict(units, log *bolt.Bucket, st *staged, capacity int) error {
	if st.n <= capacity {
		return nil
	}
	type entry struct {
		seq  int64
		logP float64
	}
	var es []entry
	seen := make(map[int64]bool)
	for seq, c := range st.changes {
		seen[seq] = true
		if c.present {
			es = append(es, entry{seq, c.logP})
		}
	}
	if !st.cleared {
		for seq, p := range st.sp.core {
			if !seen[seq] {
				es = append(es, entry{seq, p})
			}
		}
	}
	slices.SortFunc(es, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.logP, b.logP), cmp.Compare(a.seq, b.seq))
	})
	for _, e := range es[:max(0, len(es)-capacity)] {
		k := seqKey(e.seq)
		r, err := decodeRecord(k, units.Get(k))
		if err != nil {
			// A damaged record costs that record, never the memory: failing
			// the commit would fail every later one too.
			st.logger.Warn("boltstore: dropping an undecodable record", "seq", e.seq, "err", err)
			if err := units.Delete(k); err != nil {
				return err
			}
			st.set(e.seq, coreChange{})
			continue
		}
		r.Route, r.Embedding = store.RouteNowhere, nil
		if err := log.Put(k, encodeRecord(r)); err != nil {
			return err
		}
		if err := units.Delete(k); err != nil {
			return err
		}
		st.set(e.seq, coreChange{})
	}
	return nil
}

// Reserve implements [store.Store]. The next commit persists the counter.
func (s *Store) Reserve(ctx context.Context, ns engram.Namespace, n int) (int64, error) {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	if err := s.check(ctx); err != nil {
		return 0, err
	}
	if n <= 0 {
		return 0, fmt.Errorf("boltstore: reserve %d: %w", n, engram.ErrInvalidInput)
	}
	if err := checkNS(ns); err != nil {
		return 0, err
	}
	sp, err := s.spaceFor(ns)
	if err != nil {
		return 0, err
	}
	// The next commit persists the counter: a number reserved and never
	// committed names no record, so reusing it after a crash is harmless.
	first := sp.next
	sp.next += int64(n)
	sp.nextDirty = true
	return first, nil
}

// Release implements [store.Releaser]. bbolt has one writer process, so
// a release after the last reservation makes numbering gap-free.
func (s *Store) Release(ctx context.Context, ns engram.Namespace, from, end int64) error {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	if err := s.check(ctx); err != nil {
		return err
	}
	if from < 0 || from > end {
		return fmt.Errorf("boltstore: release [%d, %d): %w", from, end, engram.ErrInvalidInput)
	}
	if err := checkNS(ns); err != nil {
		return err
	}
	sp, err := s.spaceFor(ns)
	if err != nil {
		return err
	}
	if from == end || sp.next != end {
		return nil // reserved since: the numbers stay taken
	}
	err = s.write(func(tx *bolt.Tx) error {
		b, err := spaceBucket(tx, sp.key)
		if err != nil {
			return err
		}
		return b.Bucket(metaBucket).Put(nextKey, binary.BigEndian.AppendUint64(nil, uint64(from)))
	})
	if err != nil {
		return fmt.Errorf("boltstore: release in %s: %w", s.path, err)
	}
	sp.next, sp.nextDirty = from, false
	return nil
}
