package dmem

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/store"
	bolt "go.etcd.io/bbolt"
)

func openBolt(t *testing.T) *boltStore {
	t.Helper()
	s, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s.(*boltStore)
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

// TestReopenNumbersOn: a memory reopened from its directory numbers its
// steps on from where it stopped, not from the next block of sequence
// numbers it would have reserved.
func TestReopenNumbersOn(t *testing.T) {
	dir := t.TempDir()
	m, err := New(bg, WithPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, turn := range [][2]string{
		{"My sister Alice lives in Lisbon.", "Lisbon is lovely."},
		{"I had pasta for lunch.", "Carbonara, I hope."},
		{"The wifi password is kiwi-7731.", "I will remember it."},
	} {
		save(t, m, turn[0], turn[1])
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	m, err = New(bg, WithPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	save(t, m, "Our train leaves at 9:40 on Friday.", "Have a good trip.")
	seqs := make(map[string]int64)
	for _, r := range []Route{RouteCore, RouteShort} {
		for _, u := range m.UnitsIn(r) {
			seqs[u.Text] = u.Seq
		}
	}
	if got, ok := seqs["Our train leaves at 9:40 on Friday."]; !ok || got != 6 {
		t.Fatalf("after 3 turns (steps 0-5) and a reopen, the next turn is step %d (stored: %v), want 6\n%v", got, ok, seqs)
	}
	if got := seqs["Have a good trip."]; got != 7 {
		t.Fatalf("its reply is step %d, want 7", got)
	}
}

// With relaxed durability, what was saved is on disk after Close, and a
// reopened memory has it; the option applies to WithPath's store only.
func TestSyncEvery(t *testing.T) {
	dir := t.TempDir()
	m, err := New(bg, WithPath(dir), WithSyncEvery(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	save(t, m, "The deploy key is in the vault.", "Noted.")
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := New(bg, WithPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if h := load(t, r, "where is the deploy key?"); !strings.Contains(h, "vault") {
		t.Fatalf("after a relaxed save and a reopen:\n%s", h)
	}
	for _, opts := range [][]Option{{WithSyncEvery(-time.Second), WithPath(t.TempDir())}, {WithSyncEvery(time.Second)}} {
		if _, err := New(bg, opts...); !errors.Is(err, engram.ErrInvalidOption) {
			t.Errorf("err = %v, want ErrInvalidOption", err)
		}
	}
}
