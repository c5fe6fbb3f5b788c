package dmem

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// hookedStore is a bbolt store whose commits can be made to fail and whose
// reservations can be held up.
type hookedStore struct {
	Store
	failing atomic.Bool
	reserve func() // called at the start of Reserve, if set
}

func (s *hookedStore) Commit(ctx context.Context, ns Namespace, ops []Op) error {
	if s.failing.Load() {
		return errors.New("disk on fire")
	}
	return s.Store.Commit(ctx, ns, ops)
}

func (s *hookedStore) Reserve(ctx context.Context, ns Namespace, n int) (int64, error) {
	if s.reserve != nil {
		s.reserve()
	}
	return s.Store.Reserve(ctx, ns, n)
}

// Once its store fails a commit, a memory takes no more writes: each is
// refused before it changes the memory, and nothing is queued for a commit
// that will never happen.
func TestFailedStoreDropsWrites(t *testing.T) {
	s := &hookedStore{Store: openBolt(t)}
	m := newMemory(t, WithStore(s))
	save(t, m, "My sister Priya lives in Lisbon.", "Nice!")
	s.failing.Store(true)
	err := m.SaveContext(bg, map[string]any{"input": "Marcus moved to Denver."}, map[string]any{"output": "Cool."})
	if !errors.Is(err, errStoreFailed) {
		t.Fatalf("save with a failing store: %v", err)
	}
	steps := m.Stats().Steps
	for i := range 20 {
		err := m.SaveContext(bg, map[string]any{"input": fmt.Sprintf("Fact number %d about Yuki.", i)}, map[string]any{"output": "Noted."})
		if !errors.Is(err, errStoreFailed) {
			t.Fatalf("save %d after the failure: %v", i, err)
		}
	}
	if err := m.Reward(bg, 1); !errors.Is(err, errStoreFailed) {
		t.Fatalf("reward after the failure: %v", err)
	}
	if err := m.Clear(bg); !errors.Is(err, errStoreFailed) {
		t.Fatalf("clear after the failure: %v", err)
	}
	if got := m.Stats().Steps; got != steps {
		t.Fatalf("refused saves recorded %d steps", got-steps)
	}
	load(t, m, "Who lives in Lisbon?") // marks retrieved units dirty: ops for the next commit
	if err := m.Close(); !errors.Is(err, errStoreFailed) {
		t.Fatalf("close after the failure: %v", err)
	}
	m.w.mu.Lock()
	n := len(m.w.pending)
	m.w.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d ops queued after the store failed", n)
	}
}

// A save waiting on the store for sequence numbers holds up neither loads
// nor Stats.
func TestReserveOutsideLock(t *testing.T) {
	s := &hookedStore{Store: openBolt(t)}
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
