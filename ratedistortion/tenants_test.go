package ratedistortion

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/gate"
	"github.com/engram-go/engram/option"
)

// TestTenantsNeverCross runs random saves, loads, pins and forgets for 100
// tenants, two goroutines each, and checks that every line any tenant ever
// sees carries that tenant's own marker.
func TestTenantsNeverCross(t *testing.T) {
	ts, err := NewTenants(option.WithTokenBudget(120), option.WithMaxUnits(40))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const tenants, opsPer = 100, 12
	var wg sync.WaitGroup
	for n := range tenants {
		ns := engram.Namespace{User: fmt.Sprint("user", n), Agent: "a", Session: "s"}
		mark := fmt.Sprintf("T%03dX", n)
		for g := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(n), uint64(g)))
				for i := range opsPer {
					b, err := ts.For(ns)
					if err != nil {
						t.Error(err)
						return
					}
					switch r.IntN(4) {
					case 0, 1:
						in := map[string]any{"input": fmt.Sprintf("%s fact %d about the shared topic", mark, i)}
						if err := b.SaveContext(ctx, in, map[string]any{"output": mark + " ok"}); err != nil {
							t.Error(err)
							return
						}
					case 2:
						v, err := b.LoadMemoryVariables(ctx, map[string]any{"input": "the shared topic"})
						if err != nil {
							t.Error(err)
							return
						}
						for _, line := range strings.Split(v["history"].(string), "\n") {
							if line != "" && !strings.Contains(line, mark) && !strings.HasPrefix(line, "system: Left out") {
								t.Errorf("tenant %s saw %q", mark, line)
								return
							}
						}
					case 3:
						for _, u := range b.Units() {
							if !strings.Contains(u.Text, mark) {
								t.Errorf("tenant %s holds %q", mark, u.Text)
								return
							}
						}
					}
				}
			}()
		}
	}
	wg.Wait()
	if ts.Len() != tenants {
		t.Fatalf("%d namespaces, want %d", ts.Len(), tenants)
	}
	ts.Forget(ctx, engram.Namespace{User: "user0", Agent: "a", Session: "s"})
	if ts.Len() != tenants-1 {
		t.Fatalf("Forget kept the namespace")
	}
	if _, err := ts.For(engram.Namespace{User: "bad\x00"}); !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("invalid namespace: err = %v", err)
	}
	if _, err := NewTenants(option.WithTokenBudget(-1)); !errors.Is(err, engram.ErrInvalidOption) {
		t.Fatalf("bad options: err = %v", err)
	}
}

// Each namespace learns in its own copy of the gate: one tenant's rewards
// do not change another's scores.
func TestTenantsLearnApart(t *testing.T) {
	g, err := gate.New(gate.WithSeed(4))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := NewTenants(option.WithTokenBudget(200), option.WithGate(g))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := ts.For(engram.Namespace{User: "a"})
	b, _ := ts.For(engram.Namespace{User: "b"})
	for _, buf := range []*Buffer{a, b} {
		save(t, buf, "My sister Priya lives in Lisbon.", "Nice.")
	}
	load(t, b, "Lisbon")
	before, _ := b.ExplainSelection()
	for range 50 {
		load(t, a, "Lisbon")
		if err := a.Reward(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
	}
	load(t, b, "Lisbon")
	after, _ := b.ExplainSelection()
	if before.Units[0].Utility != after.Units[0].Utility {
		t.Fatalf("tenant a's rewards moved tenant b's utility from %v to %v", before.Units[0].Utility, after.Units[0].Utility)
	}
}

// TestTenantsKeepTheirOptions: NewTenants keeps a copy of its options, so
// that a caller who reuses its slice does not change what the next
// namespace's buffer is built with.
func TestTenantsKeepTheirOptions(t *testing.T) {
	opts := []Option{option.WithTokenBudget(100), option.WithMemoryKey("past")}
	ts, err := NewTenants(opts...)
	if err != nil {
		t.Fatal(err)
	}
	opts[1] = Option{}
	b, err := ts.For(engram.Namespace{User: "ana"})
	if err != nil {
		t.Fatal(err)
	}
	if keys := b.MemoryVariables(context.Background()); len(keys) != 1 || keys[0] != "past" {
		t.Errorf("memory variables %v, want [past]", keys)
	}
}
