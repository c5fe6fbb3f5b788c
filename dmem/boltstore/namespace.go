package boltstore

import (
	"context"
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/internal/vecindex"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/internal/wire"
	bolt "go.etcd.io/bbolt"
)

// The file's layout: a root bucket holds one bucket per namespace, keyed
// by the length-prefixed namespace (nsKey), each with the buckets units
// and log (records by Seq), terms (counts as varints) and meta (the
// learned state, the next sequence number).
var (
	rootBucket  = []byte("dmem")
	unitsBucket = []byte("units")
	logBucket   = []byte("log")
	termsBucket = []byte("terms")
	metaBucket  = []byte("meta")
	stateKey    = []byte("state")
	nextKey     = []byte("next")
)

// space is what the store keeps in memory for one namespace.
type space struct {
	key       []byte
	next      int64 // the next sequence number to reserve
	nextDirty bool  // next has not been committed yet
	core      map[int64]float64
	ix        map[int]*vecindex.Index // core records with a non-zero vector, by dimension
}

// nsKey encodes a namespace injectively.
func nsKey(ns engram.Namespace) []byte {
	var b []byte
	for _, f := range [...]string{ns.User, ns.Agent, ns.Session} {
		b = wire.AppendPrefixed(b, []byte(f))
	}
	return b
}

// parseNSKey decodes what nsKey wrote.
func parseNSKey(k []byte) (engram.Namespace, bool) {
	d := wire.Reader{B: k}
	var f [3]string
	for i := range f {
		f[i] = string(d.Prefixed())
	}
	ns := engram.Namespace{User: f[0], Agent: f[1], Session: f[2]}
	return ns, d.Err == nil && len(d.B) == 0 && ns.Valid()
}

// checkNS refuses a namespace whose key bbolt cannot hold: the three
// fields together may have about 32 KB (bolt.MaxKeySize, less a few
// bytes of lengths).
func checkNS(ns engram.Namespace) error {
	if n := len(nsKey(ns)); n > bolt.MaxKeySize {
		return fmt.Errorf("boltstore: a namespace of %d bytes (user %d, agent %d, session %d), over bbolt's key limit of %d: %w",
			n, len(ns.User), len(ns.Agent), len(ns.Session), bolt.MaxKeySize, engram.ErrInvalidInput)
	}
	return nil
}

// spaceFor returns the loaded space of ns, loading it on first use. The
// caller holds commitMu.
func (s *Store) spaceFor(ns engram.Namespace) (*space, error) {
	s.mu.RLock()
	sp := s.spaces[ns]
	s.mu.RUnlock()
	if sp != nil {
		return sp, nil
	}
	sp = &space{key: nsKey(ns), core: make(map[int64]float64), ix: make(map[int]*vecindex.Index)}
	err := s.read(func(tx *bolt.Tx) error {
		b := bucket(tx.Bucket(rootBucket), sp.key)
		if b == nil {
			return nil
		}
		if mb := bucket(b, metaBucket); mb != nil {
			if v := mb.Get(nextKey); len(v) == 8 {
				sp.next = max(0, int64(binary.BigEndian.Uint64(v)))
			}
		}
		if lb := bucket(b, logBucket); lb != nil {
			if k, _ := lb.Cursor().Last(); len(k) == 8 {
				sp.next = max(sp.next, int64(binary.BigEndian.Uint64(k))+1)
			}
		}
		return forEach(bucket(b, unitsBucket), func(k, v []byte) error {
			r, err := decodeRecord(k, v)
			if err != nil {
				s.skip(ns, unitsBucket, k, err) // a damaged record costs that record
				return nil
			}
			sp.next = max(sp.next, r.Seq+1)
			if r.Route == store.RouteCore {
				sp.core[r.Seq] = r.LogP
				if !vecindex.Zero(r.Embedding) {
					if err := sp.index(len(r.Embedding)).Add(context.Background(), seqID(r.Seq), r.Embedding); err != nil {
						return err
					}
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("boltstore: load %s from %s: %w", ns, s.path, err)
	}
	s.mu.Lock()
	s.spaces[ns] = sp
	s.mu.Unlock()
	return sp, nil
}

// index returns the index of dimension dim, creating it.
func (sp *space) index(dim int) *vecindex.Index {
	ix := sp.ix[dim]
	if ix == nil {
		ix = vecindex.NewScanned()
		sp.ix[dim] = ix
	}
	return ix
}

func seqID(seq int64) string { return strconv.FormatInt(seq, 10) }

// bucket returns the bucket name of b, nil if b is nil or lacks it.
func bucket(b *bolt.Bucket, name []byte) *bolt.Bucket {
	if b == nil {
		return nil
	}
	return b.Bucket(name)
}

// forEach is b.ForEach, doing nothing if b is nil.
func forEach(b *bolt.Bucket, fn func(k, v []byte) error) error {
	if b == nil {
		return nil
	}
	return b.ForEach(fn)
}
