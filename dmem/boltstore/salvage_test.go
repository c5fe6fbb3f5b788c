package boltstore_test

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/dmem/boltstore"
)

// Salvage recovers every unit that a zeroed page did not hold from a file
// that no longer opens, and leaves a damaged state record behind while
// keeping the units.
func TestSalvage(t *testing.T) {
	fx := getFixture(t)
	// Zero the units leaf page that holds the most units.
	var run pageRun
	for _, r := range fx.runs {
		if !r.buckets && len(r.texts) > len(run.texts) {
			run = r
		}
	}
	if len(run.texts) == 0 {
		t.Fatal("no leaf page of units in the fixture")
	}
	b := bytes.Clone(fx.file)
	clear(b[run.start:run.end])
	dir, path := writeStore(t, b)
	_, err := dmem.New(bg, dmem.WithPath(dir))
	var ce *boltstore.CorruptError
	if !errors.Is(err, boltstore.ErrCorrupt) || !errors.As(err, &ce) || ce.Path != path {
		t.Fatalf("open of the damaged file: %v", err)
	}
	to := filepath.Join(t.TempDir(), "salvaged")
	rep, err := dmem.Salvage(bg, path, to)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Namespaces != 1 || rep.States != 1 || len(rep.Damage) == 0 || rep.Units == 0 {
		t.Fatalf("report %+v", rep)
	}
	m := newMemory(t, fixtureOptions(to)...)
	got := stored(m)
	for text := range fx.texts {
		if !run.texts[text] && !got[text] {
			t.Errorf("salvage lost %q, which the damage missed", text)
		}
	}
	save(t, m, "Freya moved to Porto.", "Noted.")
	if _, err := boltstore.Salvage(bg, path, to); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("salvage into a store: %v", err)
	}

	state := changeState(t, func(b []byte) []byte { b[0] = '['; return b })
	dir2, _ := writeStore(t, state)
	to2 := t.TempDir()
	rep, err = dmem.Salvage(bg, dir2, to2)
	if err != nil {
		t.Fatal(err)
	}
	if rep.States != 0 || rep.Lost != 1 || rep.Units != len(fx.texts) {
		t.Fatalf("salvage of a damaged state: %+v, want %d units, the state lost", rep, len(fx.texts))
	}
	// Without a check of the state, the state is copied as it is.
	if rep, err := boltstore.Salvage(bg, dir2, t.TempDir()); err != nil || rep.States != 1 || rep.Lost != 0 {
		t.Fatalf("salvage without a state check: %+v, %v", rep, err)
	}
	m2 := newMemory(t, fixtureOptions(to2)...)
	if got := stored(m2); len(got) != len(fx.texts) {
		t.Fatalf("salvaged %d of %d units", len(got), len(fx.texts))
	}
}

// With both meta pages gone, Salvage finds the root bucket's page itself.
func TestSalvageWithoutMeta(t *testing.T) {
	fx := getFixture(t)
	b := bytes.Clone(fx.file)
	clear(b[:2*fx.ps])
	dir, _ := writeStore(t, b)
	if _, err := dmem.New(bg, dmem.WithPath(dir)); !errors.Is(err, boltstore.ErrCorrupt) {
		t.Fatalf("open without meta pages: %v", err)
	}
	to := t.TempDir()
	rep, err := dmem.Salvage(bg, dir, to)
	if err != nil {
		t.Fatal(err)
	}
	m := newMemory(t, fixtureOptions(to)...)
	if got := stored(m); len(got) != len(fx.texts) {
		t.Fatalf("salvaged %d of %d units without meta pages: %+v", len(got), len(fx.texts), rep)
	}
}
