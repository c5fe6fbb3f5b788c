package knapsack

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// oneHeapGreedy is the lazy greedy over one heap of every item, as it was
// before the heap started with the best items only: the oracle the
// two-tier greedy must agree with exactly.
func oneHeapGreedy(s0 *state, free []int, budget int) *state {
	s := newState(s0.items, s0.adj)
	for _, i := range s0.selected() {
		s.add(i, nil)
	}
	h := make(gainHeap, 0, len(free))
	minCost := math.MaxInt
	for _, i := range free {
		h = append(h, entry{i: i, gain: s.gain(i), cost: s.items[i].Cost})
		minCost = min(minCost, s.items[i].Cost)
	}
	h.init()
	round := 0
	for h.Len() > 0 && s.cost+minCost <= budget {
		top := h[0]
		if s.cost+top.cost > budget {
			h.pop()
			continue
		}
		if top.round != round && len(s.nbrs(top.i)) > 0 {
			h[0].gain, h[0].round = s.gain(top.i), round
			h.down(0)
			continue
		}
		h.pop()
		if top.gain <= 0 {
			break
		}
		s.add(top.i, nil)
		round++
	}
	return s
}

// On large problems, with ties, edges and budgets of every size, the greedy
// that starts from the best items chooses exactly what one heap over every
// item chooses.
func TestTwoTierGreedyIsOneHeapGreedy(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for trial := range 300 {
		n := 50 + r.IntN(600)
		p := Problem{Budget: 5 + r.IntN(2000)}
		for range n {
			w := float64(r.IntN(20)) / 4 // ties
			if r.IntN(3) == 0 {
				w = r.Float64() * 5
			}
			p.Items = append(p.Items, Item{Cost: 1 + r.IntN(60), Weight: w})
		}
		for range r.IntN(40) {
			a, b := r.IntN(n), r.IntN(n)
			if a != b {
				p.Edges = append(p.Edges, Edge{a, b, 0.1 + 0.9*r.Float64()})
			}
		}
		adj := make([][]neighbour, n)
		seen := map[[2]int]bool{}
		var edges []Edge
		for _, e := range p.Edges {
			k := [2]int{min(e.A, e.B), max(e.A, e.B)}
			if seen[k] {
				continue
			}
			seen[k] = true
			edges = append(edges, e)
			adj[e.A] = append(adj[e.A], neighbour{e.B, e.R})
			adj[e.B] = append(adj[e.B], neighbour{e.A, e.R})
		}
		if len(edges) == 0 {
			adj = nil
		}
		base := newState(p.Items, adj)
		var free []int
		for i, it := range p.Items {
			if it.Cost <= p.Budget {
				free = append(free, i)
			}
		}
		want := oneHeapGreedy(base, free, p.Budget)
		got := lazyGreedy(base, free, p.Budget)
		if !slices.Equal(got.selected(), want.selected()) || got.value != want.value {
			t.Fatalf("trial %d (n %d, budget %d): two-tier %v (%.6f), one heap %v (%.6f)",
				trial, n, p.Budget, got.selected(), got.value, want.selected(), want.value)
		}
	}
}

// TestTopEntriesAreTheBest checks the quickselect against a full sort, on
// inputs with many equal ratios (ties go to the lower index), sorted and
// reversed inputs (the pivots' worst cases) and every k.
func TestTopEntriesAreTheBest(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	var h gainHeap
	for trial := range 300 {
		n := 1 + r.IntN(90)
		es := make([]entry, n)
		for i := range es {
			es[i] = entry{i: i, cost: 1 + r.IntN(4), gain: float64(r.IntN(6))}
		}
		switch trial % 3 {
		case 1:
			slices.SortFunc(es, h.compare)
		case 2:
			slices.SortFunc(es, func(a, b entry) int { return h.compare(b, a) })
		}
		want := slices.Clone(es)
		slices.SortFunc(want, h.compare)
		for k := 1; k <= n; k++ {
			got := slices.Clone(es)
			top, rest := topEntries(got, k)
			if len(top) != k || len(rest) != n-k || cap(top) != k {
				t.Fatalf("trial %d k %d: %d best (cap %d) and %d rest of %d", trial, k, len(top), cap(top), len(rest), n)
			}
			ids := func(es []entry) []int {
				out := make([]int, len(es))
				for x, e := range es {
					out[x] = e.i
				}
				slices.Sort(out)
				return out
			}
			if g, w := ids(top), ids(want[:k]); !slices.Equal(g, w) {
				t.Fatalf("trial %d k %d: best %v, want %v", trial, k, g, w)
			}
		}
	}
}

// TestForce: Force forces, in order, the listed items that are not forced
// yet, cost at most room, and fit the budget beside every forced item.
func TestForce(t *testing.T) {
	items := []Item{{Cost: 30, Forced: true}, {Cost: 10}, {Cost: 26}, {Cost: 20}, {Cost: 25}, {Cost: 5}}
	got := Force(items, []int{0, 1, 2, 3, 4, 5}, 25, 70)
	// 0 is forced already; 1 fits (40); 2 is over the room; 3 would make
	// 60, fits; 4 would make 85; 5 makes 65.
	if want := []int{1, 3, 5}; !slices.Equal(got, want) {
		t.Fatalf("forced %v, want %v", got, want)
	}
	for k, want := range []bool{true, true, false, true, false, true} {
		if items[k].Forced != want {
			t.Errorf("item %d forced %v, want %v", k, items[k].Forced, want)
		}
	}
}
