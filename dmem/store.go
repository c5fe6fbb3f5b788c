package dmem

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Bucket names a keyspace of a [Store].
type Bucket string

// The keyspaces a memory keeps.
const (
	BucketUnits Bucket = "units" // stored units by sequence number
	BucketGone  Bucket = "gone"  // histories of units that left, by sequence number
	BucketTerms Bucket = "terms" // document frequency of each term seen
	BucketMeta  Bucket = "meta"  // the learned state: value model, gates, counters
)

var buckets = [...]Bucket{BucketUnits, BucketGone, BucketTerms, BucketMeta}

// Op is one change in a [Store] commit: Value nil deletes Key; Key nil
// (with Value nil) empties the bucket.
type Op struct {
	Bucket Bucket
	Key    []byte
	Value  []byte
}

// Store is a memory's system of record: a few ordered keyspaces changed
// only by atomic, durable commits. The chromem index is rebuilt from it.
// Implementations must be safe for concurrent use.
type Store interface {
	// Commit applies ops in order, all or none, and returns once they are
	// durable.
	Commit(ctx context.Context, ops []Op) error
	// Scan calls fn for every key of bucket in ascending order; k and v are
	// valid only during the call.
	Scan(ctx context.Context, bucket Bucket, fn func(k, v []byte) error) error
	// Close releases the store.
	Close() error
}

// boltStore is the [Store] of a durable memory: one bbolt file, which is
// ACID, so a crash at any point leaves it at the last commit.
type boltStore struct {
	db *bolt.DB
}

// fileName is the name of the bbolt file inside the memory's directory.
const fileName = "dmem.bolt"

// openBolt opens or creates the store in dir.
func openBolt(dir string) (*boltStore, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("dmem: open store: %w", err)
	}
	db, err := bolt.Open(filepath.Join(dir, fileName), 0o600, &bolt.Options{Timeout: 5 * time.Second, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return nil, fmt.Errorf("dmem: open store: %w", err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range buckets {
			if _, err := tx.CreateBucketIfNotExists([]byte(b)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("dmem: open store: %w", err)
	}
	return &boltStore{db: db}, nil
}

func (s *boltStore) Commit(ctx context.Context, ops []Op) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		for _, op := range ops {
			b := tx.Bucket([]byte(op.Bucket))
			if b == nil {
				return fmt.Errorf("unknown bucket %q", op.Bucket)
			}
			var err error
			switch {
			case op.Key == nil:
				if err = tx.DeleteBucket([]byte(op.Bucket)); err == nil {
					_, err = tx.CreateBucket([]byte(op.Bucket))
				}
			case op.Value == nil:
				err = b.Delete(op.Key)
			default:
				err = b.Put(op.Key, op.Value)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *boltStore) Scan(ctx context.Context, bucket Bucket, fn func(k, v []byte) error) error {
	return s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			return fmt.Errorf("unknown bucket %q", bucket)
		}
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(k, v); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *boltStore) Close() error { return s.db.Close() }

func seqKey(seq int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(seq)) }

// errStoreFailed marks a memory whose store refused a commit: what it holds
// in memory may no longer match its record, so it takes no more writes.
var errStoreFailed = errors.New("dmem: store failed")

// writer is a group commit in front of a [Store]: memory operations append
// their ops in the order they happened (under Memory.mu), then wait outside
// that lock; whoever commits takes every pending op, so concurrent writers
// share one transaction and one fsync, and commits keep the memory's order.
type writer struct {
	store Store

	mu      sync.Mutex // guards pending, queued, err
	pending []Op
	queued  uint64 // ticket of the latest op batch appended
	err     error  // sticky: the first failed commit

	commitMu sync.Mutex // held while committing; guards done
	done     uint64     // tickets up to done are committed
}

// add queues ops and returns a ticket to wait on.
func (w *writer) add(ops ...Op) uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pending = append(w.pending, ops...)
	w.queued++
	return w.queued
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
	if err := w.store.Commit(context.WithoutCancel(ctx), ops); err != nil {
		err = fmt.Errorf("%w: %w", errStoreFailed, err)
		w.mu.Lock()
		w.err = err
		w.mu.Unlock()
		return err
	}
	w.done = upto
	return nil
}

func binaryUvarint(n uint32) []byte { return binary.AppendUvarint(nil, uint64(n)) }

func uvarint(b []byte) (uint32, bool) {
	v, n := binary.Uvarint(b)
	return uint32(v), n > 0
}
