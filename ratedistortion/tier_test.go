package ratedistortion

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/tokens"
)

// fakeTier is a long-term tier that holds what it is given and recalls
// the units whose text holds one of the query's words.
type fakeTier struct {
	mu        sync.Mutex
	held      []engram.Demoted
	rewards   []float64
	failNext  int // Demote calls to fail
	recallErr error
}

func (f *fakeTier) Demote(_ context.Context, us []engram.Demoted) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failNext > 0 {
		f.failNext--
		return errors.New("tier down")
	}
	f.held = append(f.held, us...)
	return nil
}

func (f *fakeTier) Recall(_ context.Context, query string, budget int) ([]engram.Unit, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.recallErr != nil {
		return nil, f.recallErr
	}
	var out []engram.Unit
	for i, d := range f.held {
		for _, w := range strings.Fields(strings.ToLower(strings.Trim(query, "?"))) {
			if len(w) > 3 && strings.Contains(strings.ToLower(d.Text), w) {
				u := d.Unit
				u.ID, u.Seq = fmt.Sprintf("t%d", i), int64(i)
				out = append(out, u)
				break
			}
		}
	}
	return out, nil
}

func (f *fakeTier) Reward(_ context.Context, r float64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rewards = append(f.rewards, r)
	return nil
}

func (f *fakeTier) texts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, d := range f.held {
		out = append(out, d.Text)
	}
	return out
}

var quiet = option.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))

func TestCapDemotesOldestToLongTerm(t *testing.T) {
	lt := &fakeTier{}
	b := newBuffer(t, option.WithTokenBudget(200), option.WithMaxUnits(20), WithLongTerm(lt), quiet)
	for i := range 30 {
		save(t, b, fmt.Sprintf("Fact number %d about the garden.", i), "Noted.")
	}
	got := lt.texts()
	if len(got) == 0 {
		t.Fatal("nothing was demoted")
	}
	// Oldest first, in the order said, each turn once.
	for i, text := range got {
		want := fmt.Sprintf("Fact number %d about the garden.", i/2)
		if i%2 == 1 {
			want = "Noted."
		}
		if text != want {
			t.Fatalf("demoted[%d] = %q, want %q (all: %q)", i, text, want, got)
		}
	}
	if n := len(b.Units()); n > 20 {
		t.Errorf("pool holds %d units, cap 20", n)
	}
	if n := len(got) + len(b.Units()); n != 60 {
		t.Errorf("pool %d + long-term %d = %d, want all 60 turns", len(b.Units()), len(got), n)
	}
}

func TestLoadRecallsFromLongTerm(t *testing.T) {
	lt := &fakeTier{}
	b := newBuffer(t, option.WithTokenBudget(120), option.WithMaxUnits(20), WithLongTerm(lt), quiet)
	ctx := context.Background()
	save(t, b, "My sister Priya works as a marine biologist in Lisbon.", "What a job!")
	for i := range 40 {
		save(t, b, fmt.Sprintf("The weather is nice today, round %d.", i), "Glad to hear it.")
	}
	for _, u := range b.Units() {
		if strings.Contains(u.Text, "Priya") {
			t.Fatal("the fact is still in the pool: the test needs it demoted")
		}
	}
	h := load(t, b, "Where does Priya work?")
	if !strings.Contains(h, "marine biologist in Lisbon") {
		t.Fatalf("the fact the long-term tier holds was not recalled:\n%s", h)
	}
	if n := tokens.Default().Count(h); n > 120 {
		t.Errorf("history costs %d tokens, budget 120", n)
	}
	ex, ok := b.ExplainSelection()
	if !ok {
		t.Fatal("no explanation")
	}
	var found bool
	for _, u := range ex.Units {
		if strings.Contains(u.Text, "Priya") {
			found = true
			if u.Tier != engram.TierLongTerm || !u.Recalled || !u.Kept {
				t.Errorf("recalled unit reported as tier %v, recalled %v, kept %v", u.Tier, u.Recalled, u.Kept)
			}
		} else if u.Tier != engram.TierWorking {
			t.Errorf("%q reported from tier %v", u.Text, u.Tier)
		}
	}
	if !found {
		t.Error("Explain does not list the recalled unit")
	}
	// The report names the recalled unit's tier once, in its own column.
	rep, _ := b.Explain()
	for _, l := range strings.Split(rep.String(), "\n") {
		if strings.HasPrefix(l, "  kept") && strings.Contains(l, "Priya") && strings.Count(l, "long-term") != 1 {
			t.Errorf("the recalled unit's line names the tier %d times: %q", strings.Count(l, "long-term"), l)
		}
	}
	// A reward after a load that showed a recalled unit reaches the tier.
	if err := b.Reward(ctx, 1); err != nil {
		t.Fatal(err)
	}
	load(t, b, "Anything else?")
	if err := b.Reward(ctx, 0.5); err != nil {
		t.Fatal(err)
	}
	lt.mu.Lock()
	rewards := lt.rewards
	lt.mu.Unlock()
	if len(rewards) != 1 || rewards[0] != 1 {
		t.Errorf("the tier got rewards %v, want [1] (the second load showed nothing of it)", rewards)
	}
	// A second load for the same fact uses the cached entry.
	if h := load(t, b, "Where does Priya work?"); !strings.Contains(h, "marine biologist") {
		t.Errorf("second recall lost the fact:\n%s", h)
	}
}

func TestLongTermFailuresLoseNothing(t *testing.T) {
	lt := &fakeTier{failNext: 1}
	b := newBuffer(t, option.WithTokenBudget(100), option.WithMaxUnits(10), WithLongTerm(lt), quiet)
	for i := range 6 { // the cap hands down once, and the tier fails
		save(t, b, fmt.Sprintf("Turn %d about the boat.", i), "Ok.")
	}
	if n := len(lt.texts()); n != 0 {
		t.Fatalf("the failing tier holds %d units", n)
	}
	for i := 6; i < 12; i++ {
		save(t, b, fmt.Sprintf("Turn %d about the boat.", i), "Ok.")
	}
	got := lt.texts()
	if len(got) < 2 || got[0] != "Turn 0 about the boat." {
		t.Fatalf("the units a failed demotion queued were not handed down in order: %q", got)
	}
	if n := len(got) + len(b.Units()); n != 24 {
		t.Errorf("pool %d + long-term %d = %d, want all 24 turns", len(b.Units()), len(got), n)
	}
	// A failing recall leaves the load to the pool.
	lt.recallErr = errors.New("tier down")
	if h := load(t, b, "Tell me about turn 11 and the boat."); !strings.Contains(h, "Turn 11") {
		t.Errorf("load with a failing tier:\n%s", h)
	}
}

func TestTwoTiersOverDMem(t *testing.T) {
	ctx := context.Background()
	lt, err := dmem.New(ctx, option.WithTokenBudget(150))
	if err != nil {
		t.Fatal(err)
	}
	defer lt.Close()
	b := newBuffer(t, option.WithTokenBudget(150), option.WithMaxUnits(40), WithLongTerm(lt), quiet)
	save(t, b, "Our dog is called Biscuit and he hates the vacuum cleaner.", "Poor Biscuit!")
	for i := range 80 {
		save(t, b, fmt.Sprintf("We talked about the quarterly report, part %d.", i), "Right, part %d is done.")
	}
	h := load(t, b, "What is the dog called?")
	if !strings.Contains(h, "Biscuit and he hates the vacuum") {
		t.Fatalf("two tiers over dmem lost the early fact:\n%s", h)
	}
	if n := tokens.Default().Count(h); n > 150 {
		t.Errorf("history costs %d tokens, budget 150", n)
	}
	if st := lt.Stats(); st.Steps == 0 {
		t.Errorf("dmem took no steps: %+v", st)
	}
}

func TestTenantsRefuseOneLongTerm(t *testing.T) {
	if _, err := NewTenants(WithLongTerm(&fakeTier{})); !errors.Is(err, engram.ErrInvalidOption) {
		t.Errorf("NewTenants(WithLongTerm): %v, want ErrInvalidOption", err)
	}
}

func TestTypedNilLongTerm(t *testing.T) {
	var m *dmem.Memory
	if _, err := New(WithLongTerm(m)); !errors.Is(err, engram.ErrInvalidOption) {
		t.Errorf("New(WithLongTerm(nil *dmem.Memory)): %v, want ErrInvalidOption", err)
	}
}

// orderTier records what it is handed and fails or panics on demand.
type orderTier struct {
	fakeTier
	panicNext bool
}

func (o *orderTier) Demote(ctx context.Context, us []engram.Demoted) error {
	o.mu.Lock()
	p := o.panicNext
	o.panicNext = false
	o.mu.Unlock()
	if p {
		panic("tier bug")
	}
	return o.fakeTier.Demote(ctx, us)
}

// Concurrent saves hand units down oldest first, and a panicking tier
// loses none (found by review).
func TestHandDownOrderAndPanics(t *testing.T) {
	lt := &orderTier{}
	b := newBuffer(t, option.WithTokenBudget(60), option.WithMaxUnits(2), WithLongTerm(lt), quiet)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				save(t, b, fmt.Sprintf("g%d turn %d", g, i), "")
			}
		}()
	}
	wg.Wait()
	b.mu.Lock()
	queued := len(b.demoted)
	b.mu.Unlock()
	seqs := make(map[string]int64)
	for _, u := range b.Units() {
		seqs[u.Text] = u.Seq
	}
	lt.mu.Lock()
	held := slices.Clone(lt.held)
	lt.mu.Unlock()
	for i := 1; i < len(held); i++ {
		if held[i].Seq <= held[i-1].Seq {
			t.Fatalf("handed down out of order: seq %d after %d", held[i].Seq, held[i-1].Seq)
		}
	}
	if n := len(held) + queued + len(seqs); n != 160 {
		t.Errorf("handed down %d + queued %d + pool %d = %d, want 160", len(held), queued, len(seqs), n)
	}

	lt.mu.Lock()
	lt.panicNext = true
	before := len(lt.held)
	lt.mu.Unlock()
	func() {
		defer func() { recover() }()
		save(t, b, "the turn whose save meets a panicking tier", "")
	}()
	save(t, b, "the next turn", "")
	lt.mu.Lock()
	after := len(lt.held)
	lt.mu.Unlock()
	if after-before < 2 {
		t.Errorf("after a panicking demotion the tier got %d more units, want the queued ones too", after-before)
	}
}

// Over a tier the pool is capped unless told otherwise; without one nothing
// is dropped unless asked for.
func TestDefaultCapWithATier(t *testing.T) {
	lt := &fakeTier{}
	for _, tc := range []struct {
		opts []Option
		want int
	}{
		{nil, 0},
		{[]Option{WithLongTerm(lt)}, DefaultTierMaxUnits},
		{[]Option{WithLongTerm(lt), option.WithMaxUnits(0)}, 0},
		{[]Option{WithLongTerm(lt), option.WithMaxUnits(50)}, 50},
		{[]Option{option.WithMaxUnits(50)}, 50},
	} {
		b, err := New(tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if b.opts.MaxUnits != tc.want {
			t.Errorf("%d options: cap %d, want %d", len(tc.opts), b.opts.MaxUnits, tc.want)
		}
	}
}

// A rating after a second question is about no load: the long-term tier,
// which showed units in the load before, does not hear it either.
func TestLateRatingDoesNotReachTheTier(t *testing.T) {
	lt := &fakeTier{}
	b := newBuffer(t, option.WithTokenBudget(120), option.WithMaxUnits(20), WithLongTerm(lt), quiet)
	ctx := context.Background()
	save(t, b, "My sister Priya works as a marine biologist in Lisbon.", "What a job!")
	for i := range 40 {
		save(t, b, fmt.Sprintf("The weather is nice today, round %d.", i), "Glad to hear it.")
	}
	if h := load(t, b, "Where does Priya work?"); !strings.Contains(h, "marine biologist") {
		t.Fatalf("the tier's fact was not recalled:\n%s", h)
	}
	save(t, b, "Where does Priya work?", "In Lisbon.")
	if err := b.Reward(ctx, 1); err != nil {
		t.Fatal(err)
	}
	save(t, b, "And what is the weather like?", "Nice.")
	if err := b.Reward(ctx, -1); err != nil {
		t.Fatal(err)
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if len(lt.rewards) != 1 || lt.rewards[0] != 1 {
		t.Fatalf("the tier got ratings %v, want [1]: the second came after another question", lt.rewards)
	}
}

// What ratings said of a recalled unit leaves with it when the cache lets
// it go: after many rated loads, each recalling another unit, the ledger
// keeps a standing only for units the buffer holds or has cached.
func TestRatingsForgetRecalledUnitsThatLeave(t *testing.T) {
	lt := &fakeTier{}
	for i := range 700 {
		lt.held = append(lt.held, engram.Demoted{Unit: engram.Unit{Role: engram.RoleHuman, Text: fmt.Sprintf("Token%d is a word.", i), Tokens: 6}})
	}
	b := newBuffer(t, option.WithTokenBudget(60), WithLongTerm(lt), quiet)
	ctx := context.Background()
	save(t, b, "Hello there.", "Hi.")
	for i := range 700 {
		load(t, b, fmt.Sprintf("What is token%d?", i))
		if err := b.Reward(ctx, float64(i%2)*2-1); err != nil {
			t.Fatal(err)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if n, held := b.credit.Standings(), len(b.pool)+len(b.recalled); n > held {
		t.Fatalf("the ledger keeps a standing for %d units, the buffer holds or caches %d", n, held)
	}
}
