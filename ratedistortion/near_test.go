package ratedistortion

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
)

// The approximate index, the directives and the pinned units follow the
// pool through what moves its units:
// the cap drops the least useful, a repeat gives a unit a new Seq, Clear
// empties it. After every load it holds exactly the pool's units; and a
// load that scores only what it gathers finds a fact among hundreds of
// fillers.
func TestNearFollowsThePool(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t, option.WithTokenBudget(256), option.WithMaxUnits(300))
	b.nearAbove = 40
	save(t, b, "My sister Priya is a marine biologist in Lisbon.", "How lovely.")
	capped := true // the cap may drop the fact
	topics := []string{"weather", "football", "traffic", "lunch", "printer", "garden", "movie", "train"}
	check := func(when string) {
		t.Helper()
		h := load(t, b, "What does Priya do for work?")
		b.mu.Lock()
		defer b.mu.Unlock()
		var dirs []int64
		pinned := 0
		for _, e := range b.pool {
			if e.unit.Flags.Has(engram.FlagDirective) {
				dirs = append(dirs, e.unit.Seq)
			}
			if e.unit.Flags.Has(engram.FlagPinned) {
				pinned++
			}
		}
		if !slices.Equal(dirs, b.directives) || pinned != len(b.pinned) {
			t.Fatalf("%s: directives %v and %d pinned noted, the pool holds %v and %d", when, b.directives, len(b.pinned), dirs, pinned)
		}
		if len(b.pool) > 40 {
			if b.near == nil || b.near.Len() != len(b.pool) {
				t.Fatalf("%s: the index holds %v units, the pool %d", when, b.near, len(b.pool))
			}
			for _, e := range b.pool {
				if d, ok := b.positionOf(e.unit.Seq); !ok || b.pool[d] != e {
					t.Fatalf("%s: unit %s not found by its Seq", when, e.unit.ID)
				}
			}
		}
		if !strings.Contains(h, "marine biologist") && !capped {
			t.Fatalf("%s: the load lost the fact:\n%s", when, h)
		}
	}
	for i := range 600 {
		topic := topics[i%len(topics)]
		save(t, b, fmt.Sprintf("Random thought %d about the %s today.", i, topic), fmt.Sprintf("Noted, %s number %d.", topic, i))
		if i%40 == 0 {
			save(t, b, fmt.Sprintf("Please remember that locker %d holds the %s kit.", i, topic), "I will.")
		}
		if i%90 == 0 {
			if err := b.Pin(b.pool[len(b.pool)-1].unit.ID); err != nil {
				t.Fatal(err)
			}
		}
		if i%7 == 0 { // an exact repeat of an earlier turn moves it to the end
			save(t, b, fmt.Sprintf("Random thought %d about the %s today.", i/2, topics[(i/2)%len(topics)]), "Yes.")
		}
		if i%50 == 49 {
			check(fmt.Sprintf("after %d turns", i+1))
		}
	}
	if len(b.directives) == 0 || len(b.pinned) == 0 {
		t.Fatalf("%d directives and %d pinned units noted: the test needs both", len(b.directives), len(b.pinned))
	}
	if err := b.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if b.near != nil {
		t.Fatalf("Clear left an index of %d units", b.near.Len())
	}
	capped = false
	save(t, b, "My sister Priya is a marine biologist in Lisbon.", "How lovely.")
	for i := range 120 {
		save(t, b, fmt.Sprintf("Random thought %d about the %s today.", i, topics[i%len(topics)]), "Noted.")
	}
	check("after Clear, 120 turns")
}

// positionOf finds a Seq, or where it would go, as a search of the whole
// pool does, whatever gaps the cap and repeats left between Seqs.
func TestPositionOfMatchesSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for _, gaps := range []int{0, 1, 5, 40} {
		b := &Buffer{}
		seq := int64(r.IntN(10))
		for range 500 {
			b.pool = append(b.pool, &entry{})
			b.seqs = append(b.seqs, seq)
			seq += 1
			if gaps > 0 && r.IntN(gaps+1) > 0 {
				seq += int64(r.IntN(gaps))
			}
		}
		for q := int64(-2); q <= seq+2; q++ {
			wi, wok := slices.BinarySearch(b.seqs, q)
			if gi, gok := b.positionOf(q); gi != wi || gok != wok {
				t.Fatalf("gaps %d: positionOf(%d) = %d, %v; the whole search gives %d, %v", gaps, q, gi, gok, wi, wok)
			}
		}
	}
}
