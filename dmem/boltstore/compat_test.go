package boltstore_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/dmem/boltstore"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/option"
)

// A store written by an earlier release (testdata/dmem.bolt.gz: a memory
// of twelve turns, at most six units in core and four in the short-term
// buffer, rated once) opens as it was, and takes a write.
func TestOpensEarlierFile(t *testing.T) {
	gz, err := os.ReadFile(filepath.Join("testdata", "dmem.bolt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := writeStore(t, b)
	ns := engram.Namespace{User: "ann", Agent: "assistant", Session: "s1"}

	s, err := boltstore.Open(bg, dir)
	if err != nil {
		t.Fatal(err)
	}
	var units, logged int
	if err := s.Scan(bg, ns, false, func(store.Record) error { units++; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.Scan(bg, ns, true, func(store.Record) error { logged++; return nil }); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Load(bg, ns)
	if err != nil {
		t.Fatal(err)
	}
	if units != 9 || logged != 15 || len(snap.State) == 0 || len(snap.Terms) == 0 {
		t.Fatalf("%d units, %d logged, a state of %d bytes, %d terms; want 9, 15, a state, terms", units, logged, len(snap.State), len(snap.Terms))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	m := newMemory(t, dmem.WithPath(dir), dmem.WithNamespace(ns.User, ns.Agent, ns.Session), option.WithMaxUnits(6), dmem.WithShortTerm(4))
	var got []string
	for text := range stored(m) {
		got = append(got, text)
	}
	slices.Sort(got)
	want := []string{
		"Fact 0: Priya moved to Lisbon and plays the cello every Monday.",
		"Fact 1: Marcus moved to Denver and plays the banjo every Tuesday.",
		"Fact 2: Yuki moved to Kyoto and plays the clarinet every Thursday.",
		"Fact 4: Ingrid moved to Tallinn and plays the trombone every Saturday.",
		"Fact 5: Omar moved to Halifax and plays the harp every Monday.",
		"Noted, fact 10.",
		"Noted, fact 11.",
		"Noted, fact 8.",
		"Noted, fact 9.",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("stored\n%q\nwant\n%q", got, want)
	}
	save(t, m, "Fact 12: Leila moved to Porto.", "Noted, fact 12.")
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
}
