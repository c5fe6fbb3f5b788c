package boltstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/store"
	bolt "go.etcd.io/bbolt"
)

var bg = context.Background()

func openBolt(t *testing.T, opts ...Option) *Store {
	t.Helper()
	s, err := Open(bg, t.TempDir(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A core record that no longer decodes is dropped by the eviction that
// reaches it; the commit, and every later one, succeeds.
func TestEvictSkipsDamagedRecord(t *testing.T) {
	s := openBolt(t)
	var ns engram.Namespace
	var ops []store.Op
	for seq := range int64(4) {
		ops = append(ops, store.Put(store.Record{Seq: seq, Route: store.RouteCore, LogP: float64(seq), Embedding: []float32{1, float32(seq)}, Data: []byte("x")}))
	}
	if err := s.Commit(bg, ns, ops); err != nil {
		t.Fatal(err)
	}
	// Damage the lowest-priority record, the first to be evicted.
	err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(rootBucket).Bucket(nsKey(ns)).Bucket(unitsBucket).Put(seqKey(0), []byte{0xff})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(bg, ns, []store.Op{store.Evict(2)}); err != nil {
		t.Fatalf("an eviction reaching a damaged record failed: %v", err)
	}
	var kept []int64
	if err := s.Scan(bg, ns, false, func(r store.Record) error { kept = append(kept, r.Seq); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(kept) != 2 || kept[0] != 2 || kept[1] != 3 {
		t.Fatalf("after evicting to 2: stored %v, want [2 3]", kept)
	}
	if _, err := s.Get(bg, ns, 0); !errors.Is(err, engram.ErrNotFound) {
		t.Fatalf("the damaged record is still there: %v", err)
	}
	if err := s.Commit(bg, ns, []store.Op{store.Evict(1)}); err != nil {
		t.Fatal(err)
	}
}

// A read that passed the closed check just before Close ran reports
// ErrClosed, not bbolt's own error.
func TestBoltReadRacingClose(t *testing.T) {
	s := openBolt(t)
	var ns engram.Namespace
	if err := s.Commit(bg, ns, []store.Op{store.Put(store.Record{Seq: 1, Route: store.RouteCore, Embedding: []float32{1}})}); err != nil {
		t.Fatal(err)
	}
	// The state Close leaves between a read's check and its transaction.
	if err := s.db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(bg, ns, 1); !errors.Is(err, engram.ErrClosed) {
		t.Fatalf("Get: %v, want ErrClosed", err)
	}
	if _, err := s.Load(bg, ns); !errors.Is(err, engram.ErrClosed) {
		t.Fatalf("Load: %v, want ErrClosed", err)
	}
	if err := s.Scan(bg, ns, false, func(store.Record) error { return nil }); !errors.Is(err, engram.ErrClosed) {
		t.Fatalf("Scan: %v, want ErrClosed", err)
	}
}

// With relaxed durability a commit is in the file, unsynced, until the
// interval passes or the store closes; what was committed is there when
// the store is opened again. A negative interval is an invalid option.
func TestSyncEvery(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(bg, dir, WithSyncEvery(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if !s.db.NoSync {
		t.Fatal("relaxed durability syncs every commit")
	}
	var ns engram.Namespace
	if err := s.Commit(bg, ns, []store.Op{store.Term("vault", 2)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(bg, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if snap, err := s.Load(bg, ns); err != nil || snap.Terms["vault"] != 2 {
		t.Fatalf("after a relaxed commit and a reopen: %v, %v", snap.Terms, err)
	}
	if _, err := Open(bg, t.TempDir(), WithSyncEvery(-time.Second)); !errors.Is(err, engram.ErrInvalidOption) {
		t.Fatalf("a negative interval: %v, want ErrInvalidOption", err)
	}
}

// A wait for another process's lock that the caller's context ends says
// the file is in use, as the wait that runs out does, and why it ended.
func TestLockWaitEndedByContextIsInUse(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no advisory locks")
	}
	path := filepath.Join(t.TempDir(), "held")
	holder, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if ok, err := tryLock(holder); !ok || err != nil {
		t.Fatalf("first lock: %v, %v", ok, err)
	}
	// Another open file description of the same file stands for another
	// process: flock locks are held by the description.
	other, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err = lockFile(ctx, other, path)
	if !errors.Is(err, ErrInUse) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("lock wait ended by the context: %v, want ErrInUse and the context's error", err)
	}
}
