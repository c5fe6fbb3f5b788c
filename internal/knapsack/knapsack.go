package knapsack

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"sync"
)

// ErrInfeasible reports that the forced items alone exceed the budget.
var ErrInfeasible = errors.New("knapsack: forced items exceed budget")

// DefaultExactLimit is the largest number of free items solved exactly.
const DefaultExactLimit = 22

// maxNodes bounds the exact search; past it the best solution found so far
// is returned, marked not exact.
const maxNodes = 1 << 18

// Item is one candidate: a unit, or a group of units kept together.
type Item struct {
	// Cost is the item's token cost, at least 1.
	Cost int
	// Weight is the utility of keeping the item, at least 0.
	Weight float64
	// Forced items are always selected.
	Forced bool
}

// Force makes each of items[ks] that is not forced already, costs at most
// room and fits budget beside every forced item, forced, in the order of
// ks; it returns those it forced. A memory keeps its newest messages so,
// whatever their weight, within what its pinned units leave.
func Force(items []Item, ks []int, room, budget int) []int {
	used := 0
	for _, it := range items {
		if it.Forced {
			used += it.Cost
		}
	}
	var forced []int
	for _, k := range ks {
		if it := &items[k]; !it.Forced && it.Cost <= room && used+it.Cost <= budget {
			it.Forced, used = true, used+it.Cost
			forced = append(forced, k)
		}
	}
	return forced
}

// Edge says that keeping either of items A and B preserves the fraction R of
// the other's utility. A pair has at most one edge, in either order.
type Edge struct {
	A, B int
	R    float64
}

// Problem is one selection to make.
type Problem struct {
	Items  []Item
	Edges  []Edge
	Budget int
	// ExactLimit is the largest number of free items solved exactly;
	// 0 means [DefaultExactLimit], negative means never.
	ExactLimit int
}

// Solution is the selected set and how good it is.
type Solution struct {
	// Selected holds the chosen items' indices, ascending.
	Selected []int
	// Cost is the total cost of Selected.
	Cost int
	// Value is F(Selected).
	Value float64
	// Exact reports that Selected is proven optimal.
	Exact bool

	report *report // what Bound and Marginal need, computed on first use
}

// report is the part of a solution only an explanation reads: a memory
// solves a problem at every load and explains few of them.
type report struct {
	once     sync.Once
	final    *state // the selection
	base     *state // the forced items
	free     []int
	room     int // budget left after the forced items
	bound    float64
	marginal []float64
}

// Bound returns an upper bound on the best achievable value; Value when
// Exact.
func (s Solution) Bound() float64 {
	if s.report == nil {
		return s.Value
	}
	s.report.compute(s)
	return s.report.bound
}

// Marginal returns, for every item, F(S ∪ {i}) − F(S \ {i}): for a
// selected item what dropping it would lose, for another what adding it
// would gain. The slice is shared: do not modify it.
func (s Solution) Marginal() []float64 {
	if s.report == nil {
		return nil
	}
	s.report.compute(s)
	return s.report.marginal
}

func (r *report) compute(s Solution) {
	r.once.Do(func() {
		r.marginal = marginals(r.final)
		if s.Exact {
			r.bound = s.Value
			return
		}
		r.bound = math.Min(bound(r.final, r.free, r.room, r.final.value), bound(r.base, r.free, r.room, r.base.value))
		r.bound = math.Max(r.bound, s.Value)
	})
}

// Gap returns the relative optimality gap (Bound − Value) / Bound, 0 when
// the bound is 0.
func (s Solution) Gap() float64 {
	b := s.Bound()
	if b <= 0 {
		return 0
	}
	return math.Max(0, (b-s.Value)/b)
}

type neighbour struct {
	j int
	r float64
}

// state is a selection under construction: the coverage of every item.
type state struct {
	items []Item
	adj   [][]neighbour
	cov   []float64
	in    []bool
	cost  int
	value float64
}

func newState(items []Item, adj [][]neighbour) *state {
	return &state{items: items, adj: adj, cov: make([]float64, len(items)), in: make([]bool, len(items))}
}

// nbrs returns the items redundant with i.
func (s *state) nbrs(i int) []neighbour {
	if s.adj == nil {
		return nil
	}
	return s.adj[i]
}

// gain returns F(S ∪ {i}) − F(S).
func (s *state) gain(i int) float64 {
	if s.in[i] {
		return 0
	}
	g := s.items[i].Weight * (1 - s.cov[i])
	for _, n := range s.nbrs(i) {
		if d := n.r - s.cov[n.j]; d > 0 {
			g += s.items[n.j].Weight * d
		}
	}
	return g
}

type undo struct {
	j   int
	old float64
}

// add puts i into S and returns what to restore to take it out again.
func (s *state) add(i int, log []undo) []undo {
	log = append(log, undo{i, s.cov[i]})
	s.value += s.items[i].Weight * (1 - s.cov[i])
	s.cov[i] = 1
	for _, n := range s.nbrs(i) {
		if n.r > s.cov[n.j] {
			log = append(log, undo{n.j, s.cov[n.j]})
			s.value += s.items[n.j].Weight * (n.r - s.cov[n.j])
			s.cov[n.j] = n.r
		}
	}
	s.in[i] = true
	s.cost += s.items[i].Cost
	return log
}

func (s *state) remove(i int, log []undo) {
	for k := len(log) - 1; k >= 0; k-- {
		u := log[k]
		s.value -= s.items[u.j].Weight * (s.cov[u.j] - u.old)
		s.cov[u.j] = u.old
	}
	s.in[i] = false
	s.cost -= s.items[i].Cost
}

func (s *state) selected() []int {
	var out []int
	for i, in := range s.in {
		if in {
			out = append(out, i)
		}
	}
	return out
}

// Solve selects items for p. It fails only when forced items exceed the
// budget or the problem is malformed.
func Solve(p Problem) (Solution, error) {
	n := len(p.Items)
	for i, it := range p.Items {
		if it.Cost < 1 || it.Weight < 0 || math.IsNaN(it.Weight) || math.IsInf(it.Weight, 0) {
			return Solution{}, fmt.Errorf("knapsack: item %d: cost %d, weight %v", i, it.Cost, it.Weight)
		}
	}
	var adj [][]neighbour // nil without edges: most loads have few or none
	if len(p.Edges) > 0 {
		adj = make([][]neighbour, n)
	}
	seen := make(map[[2]int]bool, len(p.Edges))
	for _, e := range p.Edges {
		if e.A < 0 || e.A >= n || e.B < 0 || e.B >= n || e.A == e.B || !(e.R > 0 && e.R <= 1) {
			return Solution{}, fmt.Errorf("knapsack: bad edge %+v", e)
		}
		pair := [2]int{min(e.A, e.B), max(e.A, e.B)}
		if seen[pair] {
			return Solution{}, fmt.Errorf("knapsack: edge %+v repeats a pair", e)
		}
		seen[pair] = true
		adj[e.A] = append(adj[e.A], neighbour{e.B, e.R})
		adj[e.B] = append(adj[e.B], neighbour{e.A, e.R})
	}

	base := newState(p.Items, adj)
	for i, it := range p.Items {
		if it.Forced {
			base.add(i, nil)
		}
	}
	if base.cost > p.Budget {
		return Solution{}, fmt.Errorf("%w: %d > %d", ErrInfeasible, base.cost, p.Budget)
	}
	free := make([]int, 0, n)
	for i, it := range p.Items {
		if !it.Forced && base.cost+it.Cost <= p.Budget {
			free = append(free, i)
		}
	}

	sel, value, final := greedy(base, free, p.Budget)
	limit := p.ExactLimit
	if limit == 0 {
		limit = DefaultExactLimit
	}
	exact := false
	if len(free) <= limit {
		greedySel := sel
		sel, value, exact = branchAndBound(base, free, p.Budget, sel, value)
		if !slices.Equal(sel, greedySel) {
			final = nil
		}
	}
	if final == nil {
		final = newState(p.Items, adj)
		for _, i := range sel {
			final.add(i, nil)
		}
	}
	return Solution{Selected: sel, Cost: final.cost, Value: final.value, Exact: exact,
		report: &report{final: final, base: base, free: free, room: p.Budget - base.cost}}, nil
}

// bound returns an upper bound on F(S ∪ T) over T ⊆ cand with cost(T) ≤
// budget: F(S) plus the fractional knapsack over the marginal gains given S.
// By submodularity a set's gain is at most the sum of its members' gains.
// Only the items that fill the budget are ordered: O(n + k log n).
func bound(s *state, cand []int, budget int, value float64) float64 {
	h := make(gainHeap, 0, len(cand))
	for _, i := range cand {
		if g := s.gain(i); g > 0 {
			h = append(h, entry{i: i, gain: g, cost: s.items[i].Cost})
		}
	}
	h.init()
	ub, left := value, float64(budget)
	for h.Len() > 0 && left > 0 {
		x := h.pop()
		if c := float64(x.cost); c <= left {
			ub += x.gain
			left -= c
		} else {
			ub += x.gain * left / c
			left = 0
		}
	}
	return ub
}

// greedy runs the lazy cost-benefit greedy from s (which it does not
// change) and returns the better of its result and the best single item,
// with the greedy's state when its result won (nil otherwise).
func greedy(s0 *state, free []int, budget int) ([]int, float64, *state) {
	s := lazyGreedy(s0, free, budget)
	sel, value := s.selected(), s.value

	bestI, bestV := -1, value
	for _, i := range free {
		if v := s0.value + s0.gain(i); v > bestV {
			bestI, bestV = i, v
		}
	}
	if bestI >= 0 {
		sel = append(s0.selected(), bestI)
		slices.Sort(sel)
		return sel, bestV, nil
	}
	return sel, value, s
}

// lazyGreedy adds to a copy of s0, from free, the item of most gain per
// token that fits, until none does, re-evaluating a gain only when a
// neighbour was added since (gains only shrink), and returns the copy.
func lazyGreedy(s0 *state, free []int, budget int) *state {
	s := newState(s0.items, s0.adj)
	for _, i := range s0.selected() {
		s.add(i, nil)
	}
	buf := entryPool.Get().(*[]entry)
	defer entryPool.Put(buf)
	all := (*buf)[:0]
	defer func() { *buf = all[:0] }()
	minCost, total := math.MaxInt, 0
	for _, i := range free {
		all = append(all, entry{i: i, gain: s.gain(i), cost: s.items[i].Cost})
		minCost = min(minCost, s.items[i].Cost)
		total += s.items[i].Cost
	}
	// Only the best items by gain per token can fill the budget: the heap
	// starts with those that cover it three times over, and the rest join
	// it the moment the best of them would come first (or ties), so the
	// order, and the result, are those of one heap over every item.
	h, rest := gainHeap(all), []entry(nil)
	if k := 64 + 3*budget*len(all)/max(1, total); k < len(all) {
		h, rest = topEntries(all, k)
	}
	var bestRest entry
	for _, e := range rest {
		if bestRest.cost == 0 || h.better(e, bestRest) {
			bestRest = e
		}
	}
	h.init()
	round := 0
	for (h.Len() > 0 || len(rest) > 0) && s.cost+minCost <= budget {
		if h.Len() == 0 {
			h, rest = append(h, rest...), nil
			h.init()
		}
		top := h[0]
		if s.cost+top.cost > budget {
			h.pop()
			continue
		}
		// An item with no redundancy edge keeps its gain whatever is
		// added: only a neighbour's addition makes it stale.
		if top.round != round && len(s.nbrs(top.i)) > 0 {
			// Gains only shrink as S grows, so a stale top is re-evaluated;
			// if it is still on top it is the best.
			h[0].gain, h[0].round = s.gain(top.i), round
			h.down(0)
			continue
		}
		if len(rest) > 0 && h.better(bestRest, top) {
			h = append(h, rest...)
			rest = nil
			h.init()
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

// entryPool holds lazyGreedy's arrays of entries between solves: a load
// solves over every unit of the pool, and nothing outlives the greedy.
var entryPool = sync.Pool{New: func() any { return new([]entry) }}

type entry struct {
	i, cost, round int
	gain           float64
}

// gainHeap orders entries by gain per token, highest first; ties by index
// so that the result does not depend on heap internals.
type gainHeap []entry

func (h gainHeap) Len() int { return len(h) }

// better reports whether a comes before b: more gain per token, or the
// same and the lower index.
func (gainHeap) better(a, b entry) bool {
	x, y := a.gain*float64(b.cost), b.gain*float64(a.cost)
	if x != y {
		return x > y
	}
	return a.i < b.i
}

// compare orders entries for a sort, best first (see better).
func (h gainHeap) compare(a, b entry) int {
	if h.better(a, b) {
		return -1
	}
	if h.better(b, a) {
		return 1
	}
	return 0
}

// topEntries splits es into the k best (see better), as a heap's backing
// in no particular order, and the rest, in place and in expected O(n):
// a quickselect, whose partitions turn to a sort if they stop shrinking.
// better is a strict order (ties go to the lower index), so the k best are
// one set however the pivots fall. The heap's capacity ends at k, so that
// appending to it never overwrites the rest.
func topEntries(es []entry, k int) (gainHeap, []entry) {
	var h gainHeap
	lo, hi := 0, len(es) // the k-th best lies in es[lo:hi]
	for rounds := 2 * bits.Len(uint(len(es))); hi-lo > 1; rounds-- {
		if rounds == 0 {
			slices.SortFunc(es[lo:hi], h.compare)
			break
		}
		// The median of three as pivot, moved to the end.
		mid := lo + (hi-lo)/2
		last := hi - 1
		if h.better(es[mid], es[lo]) {
			es[mid], es[lo] = es[lo], es[mid]
		}
		if h.better(es[last], es[lo]) {
			es[last], es[lo] = es[lo], es[last]
		}
		if h.better(es[mid], es[last]) {
			es[mid], es[last] = es[last], es[mid]
		}
		pivot, p := es[last], lo
		for i := lo; i < last; i++ {
			if h.better(es[i], pivot) {
				es[i], es[p] = es[p], es[i]
				p++
			}
		}
		es[p], es[last] = es[last], es[p]
		// es[lo:p] beat the pivot, now at p; the rest follow it.
		switch {
		case p == k || p+1 == k:
			lo, hi = k, k
		case p > k:
			hi = p
		default:
			lo = p + 1
		}
	}
	return gainHeap(es[:k:k]), es[k:]
}

func (h gainHeap) Less(a, b int) bool {
	x, y := h[a].gain*float64(h[b].cost), h[b].gain*float64(h[a].cost)
	if x != y {
		return x > y
	}
	return h[a].i < h[b].i
}

// The heap is written out rather than driven through container/heap: a
// load runs it over every message, and the interface calls cost more than
// the comparisons.

func (h gainHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// down restores the heap below i after h[i] got worse.
func (h gainHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		j := l
		if r := l + 1; r < len(h) && h.Less(r, l) {
			j = r
		}
		if !h.Less(j, i) {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}

// pop removes and returns the best entry.
func (h *gainHeap) pop() entry {
	old := *h
	top := old[0]
	n := len(old) - 1
	old[0] = old[n]
	*h = old[:n]
	h.down(0)
	return top
}

// branchAndBound searches all subsets of free, pruning with [bound], and
// returns the best selection, starting from the incumbent (sel, value).
func branchAndBound(s0 *state, free []int, budget int, sel []int, value float64) ([]int, float64, bool) {
	s := newState(s0.items, s0.adj)
	for _, i := range s0.selected() {
		s.add(i, nil)
	}
	order := slices.Clone(free)
	sort.SliceStable(order, func(a, b int) bool {
		ia, ib := s.items[order[a]], s.items[order[b]]
		return s.gain(order[a])*float64(ib.Cost) > s.gain(order[b])*float64(ia.Cost)
	})
	best, bestV := slices.Clone(sel), value
	nodes := 0
	const eps = 1e-12
	var visit func(k int)
	visit = func(k int) {
		nodes++
		if s.value > bestV+eps {
			best, bestV = s.selected(), s.value
		}
		if k == len(order) || nodes > maxNodes {
			return
		}
		if bound(s, order[k:], budget-s.cost, s.value) <= bestV+eps {
			return
		}
		i := order[k]
		if s.cost+s.items[i].Cost <= budget {
			log := s.add(i, nil)
			visit(k + 1)
			s.remove(i, log)
		}
		visit(k + 1)
	}
	visit(0)
	return best, bestV, nodes <= maxNodes
}

// marginals returns F(S ∪ {i}) − F(S \ {i}) for every item.
func marginals(s *state) []float64 {
	out := make([]float64, len(s.items))
	for i := range s.items {
		if s.in[i] {
			out[i] = s.loss(i)
		} else {
			out[i] = s.gain(i)
		}
	}
	return out
}

// loss returns F(S) − F(S \ {i}) for i ∈ S, recomputing the coverage of i
// and its neighbours without i.
func (s *state) loss(i int) float64 {
	covWithout := func(j int) float64 {
		if s.in[j] && j != i {
			return 1
		}
		c := 0.0
		for _, n := range s.nbrs(j) {
			if s.in[n.j] && n.j != i && n.r > c {
				c = n.r
			}
		}
		return c
	}
	l := s.items[i].Weight * (1 - covWithout(i))
	for _, n := range s.nbrs(i) {
		l += s.items[n.j].Weight * (s.cov[n.j] - covWithout(n.j))
	}
	return l
}
