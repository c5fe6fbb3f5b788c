package dmem

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/boltstore"
	"github.com/engram-go/engram/dmem/store"
)

// errFire is what a hookedStore's failing commits return.
var errFire = errors.New("disk on fire")

// hookedStore is a store whose commits can be made to fail, for good or
// for the next few, and whose reservations can be held up.
type hookedStore struct {
	store.Store
	failing atomic.Bool  // every commit fails
	failN   atomic.Int64 // the next failN commits fail
	fails   atomic.Int64 // commits failed so far
	reserve func()       // called at the start of Reserve, if set
}

func (s *hookedStore) Commit(ctx context.Context, ns engram.Namespace, ops []store.Op) error {
	if s.failing.Load() || s.failN.Add(-1) >= 0 {
		s.fails.Add(1)
		return errFire
	}
	return s.Store.Commit(ctx, ns, ops)
}

func (s *hookedStore) Reserve(ctx context.Context, ns engram.Namespace, n int) (int64, error) {
	if s.reserve != nil {
		s.reserve()
	}
	return s.Store.Reserve(ctx, ns, n)
}

// stored returns the texts of the units m holds, core and short-term.
func stored(m *Memory) map[string]bool {
	out := make(map[string]bool)
	for _, r := range [...]Route{RouteCore, RouteShort} {
		for _, u := range m.UnitsIn(r) {
			out[u.Text] = true
		}
	}
	return out
}

// A failed commit costs the writes it carried, never the memory: a short
// fault is ridden out by the retries; a long one fails the calls it
// touches with ErrStore, wrapping the cause, and once it clears later
// writes succeed, Close reports nothing stale, and what the failed calls
// wrote is neither in the memory nor in its store.
func TestStoreFailureRecovers(t *testing.T) {
	dir := t.TempDir()
	bs, err := boltstore.Open(bg, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer bs.Close()
	s := &hookedStore{Store: bs}
	m := newMemory(t, WithStore(s))
	m.w.Backoff = []time.Duration{time.Millisecond, time.Millisecond, time.Millisecond}
	save(t, m, "My sister Priya lives in Lisbon.", "Nice!")

	s.failN.Store(2) // fewer failures than attempts
	save(t, m, "Marcus moved to Denver last spring.", "Cool.")
	if n := s.fails.Load(); n != 2 {
		t.Fatalf("%d commits failed, want 2 retried", n)
	}

	s.failing.Store(true)
	for i := range 5 {
		err := m.SaveContext(bg, map[string]any{"input": fmt.Sprintf("Yuki's locker code is %d.", 1000+i)}, map[string]any{"output": "Noted."})
		if !errors.Is(err, ErrStore) || !errors.Is(err, errFire) {
			t.Fatalf("save %d with a failing store: %v, want ErrStore wrapping the cause", i, err)
		}
	}
	if err := m.Reward(bg, 1); !errors.Is(err, ErrStore) && !errors.Is(err, engram.ErrNotFound) {
		t.Fatalf("reward with a failing store: %v", err)
	}
	s.failing.Store(false)

	save(t, m, "Diego adopted a corgi named Mochi.", "Lovely.")
	save(t, m, "Ingrid plays the cello on Fridays.", "Fun.")
	if err := m.Reward(bg, 1); err != nil {
		t.Fatalf("reward after the fault cleared: %v", err)
	}
	got := stored(m)
	for _, want := range []string{"My sister Priya lives in Lisbon.", "Marcus moved to Denver last spring.", "Diego adopted a corgi named Mochi.", "Ingrid plays the cello on Fridays."} {
		if !got[want] {
			t.Errorf("%q is missing after the fault cleared", want)
		}
	}
	for text := range got {
		if strings.Contains(text, "locker") {
			t.Errorf("a failed save is in the memory: %q", text)
		}
	}
	if err := m.Close(); err != nil {
		t.Fatalf("close after a fault that cleared: %v", err)
	}

	m2 := newMemory(t, WithStore(bs))
	if got2 := stored(m2); !maps.Equal(got, got2) {
		t.Fatalf("reopened, the memory holds %v, want %v", got2, got)
	}
}

// Close after a failure that no write has reloaded from yet drops what is
// pending, built on the failed writes, and reports no stale error.
func TestCloseAfterFailure(t *testing.T) {
	s := &hookedStore{Store: openStore(t)}
	m := newMemory(t, WithStore(s))
	m.w.Backoff = nil
	save(t, m, "My sister Priya lives in Lisbon.", "Nice!")
	s.failing.Store(true)
	err := m.SaveContext(bg, map[string]any{"input": "Marcus moved to Denver."}, map[string]any{"output": "Cool."})
	if !errors.Is(err, ErrStore) {
		t.Fatalf("save with a failing store: %v", err)
	}
	load(t, m, "Who lives in Lisbon?") // marks retrieved units dirty
	s.failing.Store(false)
	if err := m.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	m2 := newMemory(t, WithStore(s.Store))
	if got := stored(m2); !got["My sister Priya lives in Lisbon."] || got["Marcus moved to Denver."] {
		t.Fatalf("reopened: %v", got)
	}
}

// A save waiting on the store for sequence numbers holds up neither loads
// nor Stats.
func TestReserveOutsideLock(t *testing.T) {
	s := &hookedStore{Store: openStore(t)}
	m := newMemory(t, WithStore(s))
	entered, release := make(chan struct{}), make(chan struct{})
	s.reserve = func() {
		entered <- struct{}{}
		<-release
	}
	saved := make(chan error, 1)
	go func() {
		saved <- m.SaveContext(bg, map[string]any{"input": "My sister Priya lives in Lisbon."}, map[string]any{"output": "Nice!"})
	}()
	<-entered
	done := make(chan error, 1)
	go func() {
		m.Stats()
		_, err := m.LoadMemoryVariables(bg, map[string]any{"input": "Priya"})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("load during a reservation: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("Stats and LoadMemoryVariables waited on the store's Reserve")
		defer func() { <-done }()
	}
	s.reserve = nil
	close(release)
	if err := <-saved; err != nil {
		t.Fatal(err)
	}
	if h := load(t, m, "Where does Priya live?"); !strings.Contains(h, "Lisbon") {
		t.Fatalf("the save is not found after the reservation:\n%s", h)
	}
}

func openStore(t *testing.T) store.Store {
	t.Helper()
	s, err := boltstore.Open(bg, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
