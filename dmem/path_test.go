package dmem

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/engram-go/engram"
)

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

// OpenStore still opens the embedded store, and a second open of one
// file in this process still fails with ErrInUse.
func TestOpenStore(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := OpenStore(dir); !errors.Is(err, ErrInUse) {
		t.Fatalf("a second open: %v, want ErrInUse", err)
	}
	m := newMemory(t, WithStore(s))
	save(t, m, "The deploy key is in the vault.", "Noted.")
}
