package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/dmem/store"
)

// errInjected is what a faultyStore's failing commits return.
var errInjected = errors.New("storetest: injected commit failure")

// faultyStore fails every commit while failing is set, before the store
// sees it: a dropped connection or a full disk, as the memory sees them.
type faultyStore struct {
	store.Store
	failing atomic.Bool
}

func (s *faultyStore) Commit(ctx context.Context, ns engram.Namespace, ops []store.Op) error {
	if s.failing.Load() {
		return errInjected
	}
	return s.Store.Commit(ctx, ns, ops)
}

// faults checks that a memory over the store rides out a store that fails
// for a while: the saves it fails return dmem.ErrStore wrapping the cause;
// once it heals, saves succeed, Close reports nothing stale, and the
// memory reopened holds every acknowledged save and none that failed.
func (s *suite) faults(t *testing.T) {
	ns := s.ns(t)
	fs := &faultyStore{Store: s.store}
	open := func(st store.Store) *dmem.Memory {
		m, err := dmem.New(bg, dmem.WithStore(st), dmem.WithNamespace(ns.User, ns.Agent, ns.Session), dmem.WithShortTerm(100))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := open(fs)
	acked, failed := make(map[string]bool), make(map[string]bool)
	save := func(i int) error {
		in := fmt.Sprintf("Fact %d: locker %d opens with code %d.", i, i, 4000+i)
		err := m.SaveContext(bg, map[string]any{"input": in}, map[string]any{"output": "Noted."})
		if err == nil {
			acked[in] = true
		} else {
			failed[in] = true
		}
		return err
	}
	for i := range 3 {
		if err := save(i); err != nil {
			t.Fatal(err)
		}
	}
	fs.failing.Store(true)
	for i := 3; i < 5; i++ {
		if err := save(i); !errors.Is(err, dmem.ErrStore) || !errors.Is(err, errInjected) {
			t.Fatalf("save with a failing store: %v, want dmem.ErrStore wrapping the cause", err)
		}
	}
	fs.failing.Store(false)
	for i := 5; i < 8; i++ {
		if err := save(i); err != nil {
			t.Fatalf("save after the store healed: %v", err)
		}
	}
	if err := m.Close(); err != nil {
		t.Fatalf("Close after the store healed: %v", err)
	}
	m = open(s.store)
	defer m.Close()
	have := make(map[string]bool)
	for _, r := range [...]dmem.Route{dmem.RouteCore, dmem.RouteShort} {
		for _, u := range m.UnitsIn(r) {
			have[u.Text] = true
		}
	}
	for in := range acked {
		if !have[in] {
			t.Errorf("acknowledged save %q is missing", in)
		}
	}
	for in := range failed {
		if have[in] {
			t.Errorf("failed save %q is stored", in)
		}
	}
}
