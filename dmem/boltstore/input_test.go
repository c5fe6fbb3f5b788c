package boltstore_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/boltstore"
	"github.com/engram-go/engram/dmem/store"
)

// TestNilContext: every call given a nil context returns an error wrapping
// engram.ErrInvalidInput, and the store goes on working: none panics with
// a lock held.
func TestNilContext(t *testing.T) {
	ctx := context.Background()
	var none context.Context
	if _, err := boltstore.Open(none, t.TempDir()); !errors.Is(err, engram.ErrInvalidInput) {
		t.Errorf("Open: %v", err)
	}
	s, err := boltstore.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var ns engram.Namespace
	calls := map[string]error{}
	_, calls["Get"] = s.Get(none, ns, 1)
	_, calls["Load"] = s.Load(none, ns)
	calls["Scan"] = s.Scan(none, ns, false, func(store.Record) error { return nil })
	_, calls["Query"] = s.Query(none, ns, []float32{1, 0}, 4)
	calls["Commit"] = s.Commit(none, ns, []store.Op{store.Term("x", 1)})
	_, calls["Reserve"] = s.Reserve(none, ns, 4)
	calls["Release"] = s.Release(none, ns, 0, 4)
	for name, err := range calls {
		if !errors.Is(err, engram.ErrInvalidInput) {
			t.Errorf("%s with a nil context: %v, want ErrInvalidInput", name, err)
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.Load(ctx, ns)
		if err == nil {
			err = s.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the store hangs after calls with a nil context")
	}
	if _, err := boltstore.Salvage(none, t.TempDir(), t.TempDir()); !errors.Is(err, engram.ErrInvalidInput) {
		t.Errorf("Salvage: %v", err)
	}
	if _, err := boltstore.Open(ctx, t.TempDir(), nil); !errors.Is(err, engram.ErrInvalidOption) {
		t.Errorf("a nil option: %v", err)
	}
}

// failsLater is a context whose Err reports it cancelled from its n-th
// call on: a salvage that gives up part way through writing.
type failsLater struct {
	context.Context
	n, calls atomic.Int64
}

func (c *failsLater) Err() error {
	if c.calls.Add(1) >= c.n.Load() {
		return context.Canceled
	}
	return nil
}

// TestSalvageLeavesNoPartialCopy: a salvage that fails while it writes
// removes what it wrote, so that the directory opens as no store and a
// second try succeeds; a file of which nothing can be read is ErrCorrupt.
func TestSalvageLeavesNoPartialCopy(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := boltstore.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	var ns engram.Namespace
	for i := range 300 {
		if err := s.Commit(ctx, ns, []store.Op{store.Term(fmt.Sprintf("city%d", i), 1)}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	// A whole salvage checks its context some number of times, the last
	// while it writes the copy: fail it there.
	counting := &failsLater{Context: ctx}
	counting.n.Store(1 << 40)
	whole := filepath.Join(t.TempDir(), "whole")
	if _, err := boltstore.Salvage(counting, dir, whole); err != nil {
		t.Fatal(err)
	}
	c := &failsLater{Context: ctx}
	c.n.Store(counting.calls.Load())
	to := filepath.Join(t.TempDir(), "copy")
	if _, err := boltstore.Salvage(c, dir, to); !errors.Is(err, context.Canceled) {
		t.Fatalf("a salvage cancelled as it writes: %v", err)
	}
	if _, err := os.Stat(filepath.Join(to, boltstore.FileName)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a salvage that failed left %s behind (%v)", to, err)
	}
	if _, err := boltstore.Salvage(ctx, dir, to); err != nil {
		t.Fatalf("a second salvage into the same directory: %v", err)
	}

	// Cut after the meta pages: every namespace is lost.
	cut := t.TempDir()
	s, err = boltstore.Open(ctx, cut)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(ctx, ns, []store.Op{store.Term("x", 1)}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := os.Truncate(filepath.Join(cut, boltstore.FileName), 8<<10); err != nil {
		t.Fatal(err)
	}
	if _, err := boltstore.Salvage(ctx, cut, filepath.Join(t.TempDir(), "copy")); !errors.Is(err, boltstore.ErrCorrupt) {
		t.Errorf("nothing to salvage: %v, want ErrCorrupt", err)
	}
}

// TestOpenThroughLink: a store already open in this process is in use
// however its directory is named, through a link too, at once.
func TestOpenThroughLink(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := boltstore.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	start := time.Now()
	if _, err := boltstore.Open(ctx, link); !errors.Is(err, boltstore.ErrInUse) || time.Since(start) > time.Second {
		t.Errorf("open through a link: %v after %v, want ErrInUse at once", err, time.Since(start))
	}
}
