package knapsack

import (
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// value computes F(S) from scratch, independently of state.
func value(p Problem, sel []int) float64 {
	in := make([]bool, len(p.Items))
	for _, i := range sel {
		in[i] = true
	}
	return valueOf(p, in, make([]float64, len(p.Items)))
}

// valueOf is value for the set in, with cov as scratch space.
func valueOf(p Problem, in []bool, cov []float64) float64 {
	for i := range p.Items {
		cov[i] = 0
		if in[i] {
			cov[i] = 1
		}
	}
	for _, e := range p.Edges {
		if in[e.A] {
			cov[e.B] = math.Max(cov[e.B], e.R)
		}
		if in[e.B] {
			cov[e.A] = math.Max(cov[e.A], e.R)
		}
	}
	v := 0.0
	for i, it := range p.Items {
		v += it.Weight * cov[i]
	}
	return v
}

// bruteForce is the oracle: every feasible subset. It sums a subset's
// cost from a smaller subset's and values only the feasible ones, reusing
// its scratch space, so that the 2^18 subsets of the largest trials stay
// quick under the race detector; the value it gives is value's.
func bruteForce(p Problem) float64 {
	n := len(p.Items)
	best := -1.0
	forced := 0
	for i, it := range p.Items {
		if it.Forced {
			forced |= 1 << i
		}
	}
	cost := make([]int, 1<<n) // cost[mask]: the cost of the subset mask
	in, cov := make([]bool, n), make([]float64, n)
	for mask := 0; mask < 1<<n; mask++ {
		if mask != 0 {
			cost[mask] = cost[mask&(mask-1)] + p.Items[bits.TrailingZeros(uint(mask))].Cost
		}
		if mask&forced != forced || cost[mask] > p.Budget {
			continue
		}
		for i := range n {
			in[i] = mask&(1<<i) != 0
		}
		best = math.Max(best, valueOf(p, in, cov))
	}
	return best
}

func randomProblem(r *rand.Rand, n int) Problem {
	p := Problem{Budget: 5 + r.IntN(60)}
	for range n {
		p.Items = append(p.Items, Item{Cost: 1 + r.IntN(15), Weight: r.Float64() * 3})
	}
	for a := range n {
		for b := a + 1; b < n; b++ {
			if r.IntN(6) == 0 {
				p.Edges = append(p.Edges, Edge{a, b, 0.1 + 0.9*r.Float64()})
			}
		}
	}
	if n > 0 && r.IntN(3) == 0 {
		p.Items[r.IntN(n)].Forced = true
	}
	return p
}

func TestExactMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 400 {
		n := 1 + trial%18
		p := randomProblem(r, n)
		want := bruteForce(p)
		sol, err := Solve(p)
		if want < 0 {
			if !errors.Is(err, ErrInfeasible) {
				t.Fatalf("trial %d: infeasible problem gave %v", trial, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if !sol.Exact {
			t.Fatalf("trial %d (n=%d): not exact", trial, n)
		}
		if math.Abs(sol.Value-want) > 1e-9 {
			t.Fatalf("trial %d (n=%d): value %v, brute force %v", trial, n, sol.Value, want)
		}
		if got := value(p, sol.Selected); math.Abs(got-sol.Value) > 1e-9 {
			t.Fatalf("trial %d: reported value %v, recomputed %v", trial, sol.Value, got)
		}
		if sol.Cost > p.Budget {
			t.Fatalf("trial %d: cost %d > budget %d", trial, sol.Cost, p.Budget)
		}
	}
}

// The greedy path is never over budget, keeps forced items, stays within its
// guarantee of the optimum, and its bound really is an upper bound.
func TestGreedyGuaranteeAndBound(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		p := randomProblem(r, 1+trial%16)
		p.ExactLimit = -1
		want := bruteForce(p)
		sol, err := Solve(p)
		if want < 0 {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if sol.Exact {
			t.Fatal("greedy claimed exactness")
		}
		if sol.Cost > p.Budget {
			t.Fatalf("trial %d: over budget", trial)
		}
		for i, it := range p.Items {
			if it.Forced && !contains(sol.Selected, i) {
				t.Fatalf("trial %d: forced item %d dropped", trial, i)
			}
		}
		if sol.Value < (1-1/math.E)/2*want-1e-9 {
			t.Fatalf("trial %d: greedy %v below guarantee of optimum %v", trial, sol.Value, want)
		}
		if sol.Bound() < want-1e-9 {
			t.Fatalf("trial %d: bound %v below optimum %v", trial, sol.Bound(), want)
		}
	}
}

func TestMarginals(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 100 {
		p := randomProblem(r, 10)
		sol, err := Solve(p)
		if err != nil {
			continue
		}
		f := value(p, sol.Selected)
		for i := range p.Items {
			var with, without []int
			for _, j := range sol.Selected {
				if j != i {
					without = append(without, j)
				}
			}
			with = append(without, i)
			want := value(p, with) - value(p, without)
			if math.Abs(sol.Marginal()[i]-want) > 1e-9 {
				t.Fatalf("marginal[%d] = %v, want %v (F=%v)", i, sol.Marginal()[i], want, f)
			}
		}
	}
}

func TestInvalid(t *testing.T) {
	tests := map[string]Problem{
		"zero cost":     {Items: []Item{{Cost: 0, Weight: 1}}, Budget: 3},
		"nan weight":    {Items: []Item{{Cost: 1, Weight: math.NaN()}}, Budget: 3},
		"self edge":     {Items: []Item{{Cost: 1}}, Edges: []Edge{{0, 0, 0.5}}, Budget: 3},
		"edge too big":  {Items: []Item{{Cost: 1}, {Cost: 1}}, Edges: []Edge{{0, 1, 1.5}}, Budget: 3},
		"repeated pair": {Items: []Item{{Cost: 1}, {Cost: 1}}, Edges: []Edge{{0, 1, 0.5}, {1, 0, 0.5}}, Budget: 3},
	}
	for name, p := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := Solve(p); err == nil {
				t.Fatal("no error")
			}
		})
	}
	_, err := Solve(Problem{Items: []Item{{Cost: 5, Forced: true}}, Budget: 4})
	if !errors.Is(err, ErrInfeasible) {
		t.Fatalf("err = %v, want ErrInfeasible", err)
	}
}

func contains(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func benchProblem(n int) Problem {
	r := rand.New(rand.NewPCG(7, 8))
	p := Problem{Budget: 1024}
	for range n {
		p.Items = append(p.Items, Item{Cost: 20 + r.IntN(60), Weight: r.Float64()})
	}
	for a := range n {
		if b := a + 1 + r.IntN(20); b < n && r.IntN(4) == 0 {
			p.Edges = append(p.Edges, Edge{a, b, 0.5 + 0.5*r.Float64()})
		}
	}
	return p
}

func BenchmarkSolve(b *testing.B) {
	for _, n := range []int{50, 500, 5000} {
		p := benchProblem(n)
		b.Run(itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Solve(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func itoa(n int) string {
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		if n /= 10; n == 0 {
			return s
		}
	}
}
