package dmem

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/tokens"
)

// TestLoadOvertakenByClear: a load that a Clear overtakes while it packs
// records nothing: Explain has no load to report, LastLoad is empty, and a
// rating finds no load to rate, for the units it kept are gone and new
// ones take their ids.
func TestLoadOvertakenByClear(t *testing.T) {
	ctx := context.Background()
	var armed atomic.Bool
	entered, release := make(chan struct{}), make(chan struct{})
	count := tokens.Default().Count
	counter := func(s string) int { // the first count after arming waits: inside pack
		if armed.CompareAndSwap(true, false) {
			close(entered)
			<-release
		}
		return count(s)
	}
	m, err := New(ctx, option.WithTokenCounter(counter), option.WithTokenBudget(200))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	save(t, m, "My friend Priya moved to Lisbon last spring.", "Lisbon is lovely.")
	save(t, m, "I play the cello on Tuesdays.", "Nice.")
	armed.Store(true)
	done := make(chan string)
	go func() { done <- load(t, m, "Where did Priya move?") }()
	<-entered
	if err := m.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	close(release)
	<-done
	if rep, ok := m.Explain(); ok {
		t.Errorf("after Clear, Explain reports a load of %d units", len(rep.Units))
	}
	if ids := m.LastLoad(); len(ids) != 0 {
		t.Errorf("after Clear, LastLoad lists %v", ids)
	}
	if err := m.Reward(ctx, 1); !errors.Is(err, engram.ErrNotFound) {
		t.Errorf("a rating after Clear gave %v, want ErrNotFound: nothing to rate", err)
	}
}

// TestConcurrentLoadsAgree: after loads at once, Explain and LastLoad
// describe one load, the one recorded last.
func TestConcurrentLoadsAgree(t *testing.T) {
	ctx := context.Background()
	m, err := New(ctx, option.WithTokenBudget(300))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for i := range 60 {
		save(t, m, fmt.Sprintf("My friend %s moved to %s number %d.", fxNames[i%len(fxNames)], fxCities[i%len(fxCities)], i),
			fmt.Sprintf("reply %d about %s", i, fxCities[(i+3)%len(fxCities)]))
	}
	qs := []string{"Which city did Priya move to?", "Where is Marcus now?", "", "Kyoto", "Lisbon Denver"}
	for round := range 2000 {
		var wg sync.WaitGroup
		for k := range 3 {
			wg.Go(func() {
				if _, err := m.LoadMemoryVariables(ctx, map[string]any{"input": qs[(round+k)%len(qs)]}); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		rep, _ := m.Explain()
		var kept []string
		for _, u := range rep.Units {
			if u.Kept {
				kept = append(kept, u.ID)
			}
		}
		last := slices.Clone(m.LastLoad())
		slices.Sort(kept)
		slices.Sort(last)
		if !slices.Equal(kept, last) {
			t.Fatalf("round %d: Explain (query %q) kept %v, LastLoad %v", round, rep.Query, kept, last)
		}
	}
}
