package dmem

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/option"
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

// A memory closed and reopened from its directory loads as the one that
// stayed open: fed the same steps, loads and ratings, the two return the
// same history for every question, and weigh each unit's neighbouring
// turns alike, core and short-term units interleaved as they were saved.
func TestReopenLoadsAsBefore(t *testing.T) {
	clock := func() func() time.Time {
		at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		return func() time.Time { at = at.Add(time.Second); return at }
	}
	open := func(dir string, now func() time.Time) *Memory {
		m, err := New(bg, option.WithTokenBudget(100), WithPath(dir), option.WithClock(now))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	facts := []string{"My sister Priya moved to Lisbon.", "The wifi password is kiwi-7731.", "My dentist appointment is on Friday at 3pm."}
	feed := func(m *Memory) {
		for i := range 40 {
			in := fmt.Sprintf("Small talk number %d about the weather and lunch and traffic.", i)
			if i < len(facts) {
				in = facts[i]
			}
			save(t, m, in, "Noted.")
			if i%7 == 6 {
				if _, err := m.LoadMemoryVariables(bg, map[string]any{"input": "Where does Priya live?"}); err != nil {
					t.Fatal(err)
				}
				if err := m.Reward(bg, 1); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	dirA, dirB := t.TempDir(), t.TempDir()
	clockA, clockB := clock(), clock()
	a, b := open(dirA, clockA), open(dirB, clockB)
	defer a.Close()
	feed(a)
	feed(b)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	b = open(dirB, clockB)
	defer b.Close()
	for _, q := range []string{"When is the dentist?", "Where does Priya live?", "", "wifi"} {
		ha, err := a.LoadMemoryVariables(bg, map[string]any{"input": q})
		if err != nil {
			t.Fatal(err)
		}
		hb, err := b.LoadMemoryVariables(bg, map[string]any{"input": q})
		if err != nil {
			t.Fatal(err)
		}
		if ha["history"] != hb["history"] {
			t.Errorf("%q: the open memory returned\n%s\nthe reopened one\n%s", q, ha["history"], hb["history"])
			continue
		}
		xa, _ := a.Explain()
		xb, _ := b.Explain()
		for i := range min(len(xa.Units), len(xb.Units)) {
			// Reopened, a unit's row is packed again from the vector
			// the store kept, which may round a component's last bit.
			if ua, ub := xa.Units[i], xb.Units[i]; ua.ID != ub.ID || math.Abs(ua.Relevance-ub.Relevance) > 1e-6 {
				t.Errorf("%q: unit %d is %s at relevance %.4f open, %s at %.4f reopened", q, i, ua.ID, ua.Relevance, ub.ID, ub.Relevance)
			}
		}
	}
}

// A store whose vectors another embedder made is refused when it opens,
// with an error that says so, rather than opening to fail every save and
// load; opened again with the embedder that wrote it, it holds all it did.
func TestReopenWithAnotherEmbedderIsRefused(t *testing.T) {
	dir := t.TempDir()
	m, err := New(bg, WithPath(dir), option.WithEmbedder(sameEmbedder{})) // 4 dimensions
	if err != nil {
		t.Fatal(err)
	}
	save(t, m, "The wifi password is kiwi-7731.", "I will remember it.")
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	other, err := embed.New(embed.WithGloVeShare(0.5), embed.WithDimensions(64))
	if err != nil {
		t.Fatal(err)
	}
	for name, opts := range map[string][]Option{"the default embedder": nil, "another of known length": {option.WithEmbedder(other)}} {
		m, err := New(bg, append(opts, WithPath(dir))...)
		if err == nil {
			m.Close()
			t.Fatalf("%s: opened a store of 4-dimension vectors", name)
		}
		if !errors.Is(err, engram.ErrInvalidOption) || !strings.Contains(err.Error(), "4 dimensions") {
			t.Errorf("%s: %v, want ErrInvalidOption naming the store's dimensions", name, err)
		}
	}
	m, err = New(bg, WithPath(dir), option.WithEmbedder(sameEmbedder{}))
	if err != nil {
		t.Fatalf("reopened with the embedder that wrote it: %v", err)
	}
	defer m.Close()
	if us := m.Units(); len(us) == 0 {
		t.Error("the store lost its units")
	}

	// A refused open writes nothing, though its caps would have evicted.
	dir = t.TempDir()
	m, err = New(bg, WithPath(dir), WithShortTerm(3), option.WithMaxUnits(5))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		save(t, m, fmt.Sprintf("The locker code of desk %d is %d.", i, 7000+i*3), "Noted.")
	}
	want := len(m.Units())
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := New(bg, WithPath(dir), option.WithEmbedder(other), WithShortTerm(1), option.WithMaxUnits(1)); !errors.Is(err, engram.ErrInvalidOption) {
		t.Fatalf("an open with another embedder and smaller caps: %v", err)
	}
	m, err = New(bg, WithPath(dir), WithShortTerm(3), option.WithMaxUnits(5))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if got := len(m.Units()); got != want {
		t.Errorf("after a refused open the store holds %d units, had %d", got, want)
	}
}
