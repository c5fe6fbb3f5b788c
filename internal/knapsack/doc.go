// Package knapsack is engram's one budgeted selector, used by every backend.
//
// It picks a set S of items that fits a token budget and maximises a
// monotone submodular utility: the distortion avoided by keeping S,
//
//	F(S) = Σ_i w_i · cov(i, S),  cov(i, S) = 1 if i ∈ S, else max_{j∈S} r_ij
//
// where w_i ≥ 0 is item i's utility and r_ij ∈ (0, 1] says how much of i a
// kept near-duplicate j preserves. Without redundancy edges F is the sum of
// the kept weights, a plain 0/1 knapsack. With them, a second copy of what is
// already kept adds little, so the selection spends its budget on new
// information.
//
// Small instances are solved exactly by branch and bound; larger ones by a
// lazy cost-benefit greedy, taking the better of it and the best single item,
// which guarantees at least (1 − 1/e)/2 of the optimum. Every solution comes
// with an upper bound on the optimum — the fractional (LP) knapsack over the
// marginal gains — so the optimality gap is known.
package knapsack
