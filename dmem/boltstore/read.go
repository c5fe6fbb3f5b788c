package boltstore

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/internal/vecindex"
	"github.com/engram-go/engram/dmem/store"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// view runs fn in a read transaction on the bucket of ns; b is nil if the
// namespace holds nothing.
func (s *Store) view(ctx context.Context, ns engram.Namespace, fn func(b *bolt.Bucket) error) error {
	s.commitMu.Lock()
	err := s.check(ctx)
	s.commitMu.Unlock()
	if err != nil {
		return err
	}
	err = s.read(func(tx *bolt.Tx) error { return fn(bucket(tx.Bucket(rootBucket), nsKey(ns))) })
	if errors.Is(err, berrors.ErrDatabaseNotOpen) {
		// Close ran between the check and the transaction.
		return fmt.Errorf("boltstore: %w", engram.ErrClosed)
	}
	return err
}

// Get implements [store.Store].
func (s *Store) Get(ctx context.Context, ns engram.Namespace, seq int64) (store.Record, error) {
	var r store.Record
	var found bool
	err := s.view(ctx, ns, func(b *bolt.Bucket) error {
		if b == nil {
			return nil
		}
		units := bucket(b, unitsBucket)
		if units == nil {
			return nil
		}
		k := seqKey(seq)
		v := units.Get(k)
		if v == nil {
			return nil
		}
		var err error
		if r, err = decodeRecord(k, v); err != nil {
			s.skip(ns, unitsBucket, k, err)
			return nil
		}
		found = true
		return nil
	})
	if err != nil {
		return store.Record{}, err
	}
	if !found {
		return store.Record{}, fmt.Errorf("boltstore: record %d of %s: %w", seq, ns, engram.ErrNotFound)
	}
	return r, nil
}

// Scan implements [store.Store]; fn runs outside the read transaction, so
// it may commit.
func (s *Store) Scan(ctx context.Context, ns engram.Namespace, log bool, fn func(store.Record) error) error {
	var rs []store.Record
	err := s.view(ctx, ns, func(b *bolt.Bucket) error {
		if b == nil {
			return nil
		}
		name := unitsBucket
		if log {
			name = logBucket
		}
		return forEach(bucket(b, name), func(k, v []byte) error {
			if r, err := decodeRecord(k, v); err == nil {
				rs = append(rs, r)
			} else {
				s.skip(ns, name, k, err)
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	// fn runs outside the read transaction, so it may commit.
	return store.Visit(ctx, rs, fn)
}

// Query implements [store.Store], searching the namespace's chromem
// index of core records exactly.
func (s *Store) Query(ctx context.Context, ns engram.Namespace, vec []float32, n int) ([]store.Hit, error) {
	s.commitMu.Lock()
	err := s.check(ctx)
	var sp *space
	if err == nil {
		sp, err = s.spaceFor(ns)
	}
	s.commitMu.Unlock()
	if err != nil || n <= 0 || vecindex.Zero(vec) {
		return nil, err
	}
	q, err := vecindex.Normalised(vec)
	if err != nil {
		return nil, fmt.Errorf("boltstore: query: %w", err)
	}
	s.mu.RLock()
	var hits []vecindex.Hit
	if ix := sp.ix[len(q)]; ix != nil {
		hits, err = ix.Nearest(ctx, q, n)
	}
	s.mu.RUnlock()
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	out := make([]store.Hit, 0, len(hits))
	err = s.view(ctx, ns, func(b *bolt.Bucket) error {
		if b == nil {
			return nil
		}
		units := bucket(b, unitsBucket)
		if units == nil {
			return nil
		}
		for _, h := range hits {
			seq, _ := strconv.ParseInt(h.ID, 10, 64)
			k := seqKey(seq)
			if v := units.Get(k); v != nil {
				if r, err := decodeRecord(k, v); err == nil && r.Route == store.RouteCore {
					out = append(out, store.Hit{Record: r, Similarity: h.Sim})
				}
			}
		}
		return nil
	})
	return out, err
}

// Load implements [store.Store].
func (s *Store) Load(ctx context.Context, ns engram.Namespace) (store.Snapshot, error) {
	snap := store.Snapshot{Terms: make(map[string]int64)}
	err := s.view(ctx, ns, func(b *bolt.Bucket) error {
		if b == nil {
			return nil
		}
		if mb := bucket(b, metaBucket); mb != nil {
			if v := mb.Get(stateKey); v != nil {
				snap.State = append([]byte(nil), v...)
			}
		}
		return forEach(bucket(b, termsBucket), func(k, v []byte) error {
			n, w := binary.Varint(v)
			if w <= 0 || w != len(v) {
				s.skip(ns, termsBucket, k, errRecord)
				return nil
			}
			snap.Terms[string(k)] = n
			return nil
		})
	})
	return snap, err
}
