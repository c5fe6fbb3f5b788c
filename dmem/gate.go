package dmem

import (
	"math"

	"github.com/engram-go/engram/dmem/internal/quantile"
)

// Route is where the gate sends a step.
type Route uint8

// Routes, from least to most kept.
const (
	RouteNowhere Route = iota // not stored; only its decision is remembered
	RouteShort                // the short-term buffer, overwritten as new steps come
	RouteCore                 // core memory, kept until evicted by priority
	RouteMerged               // folded into a stored near-duplicate
)

var routeNames = [...]string{"nowhere", "short", "core", "merged"}

// String returns the route's lower-case name.
func (r Route) String() string {
	if int(r) < len(routeNames) {
		return routeNames[r]
	}
	return "unknown"
}

// Gate values from which a step goes to core memory or the short-term buffer.
const (
	coreGate  = 0.5
	shortGate = 0.2
)

// routeGate is g = σ(α|δ| − β), with α and β set from streaming (P²) quantiles of the
// |δ| it has seen: the midpoint β/α is the upper quantile plus fence times
// the spread between the quantiles, clamped to [minMid, maxMid]; the slope α
// is steep/spread, so the gate is as sharp as the distribution is narrow.
type routeGate struct {
	lo, hi         quantile.Estimator
	fence          float64
	minMid, maxMid float64
	minSpread      float64
	steep          float64
}

// noveltyGate gates the novelty of reward-free steps. Novelty has an
// absolute scale (the share of a step the memory could not predict), so the
// midpoint follows the median only within a band: a stream of nothing but
// facts still stores them, a stream of chatter still drops it.
func noveltyGate() routeGate {
	return routeGate{lo: quantile.New(0.25), hi: quantile.New(0.5), minMid: 0.3, maxMid: 0.42, minSpread: 0.1, steep: 4}
}

// rewardGate gates reward prediction errors, whose scale is whatever the
// caller's rewards are: a step is surprising when |δ| lies beyond Tukey's
// inner fence of the running distribution, Q3 + 1.5·IQR.
func rewardGate() routeGate {
	return routeGate{lo: quantile.New(0.25), hi: quantile.New(0.75), fence: 1.5, maxMid: math.Inf(1), steep: 4}
}

// params returns α and β; floor is the smallest midpoint allowed besides
// minMid (the reward gate's scale floor).
func (g *routeGate) params(floor float64) (alpha, beta float64) {
	lo, hi := g.lo.Value(), g.hi.Value()
	spread := max(hi-lo, g.minSpread, floor/2, 1e-12)
	mid := min(max(hi+g.fence*(hi-lo), g.minMid, floor), g.maxMid)
	alpha = g.steep / spread
	return alpha, alpha * mid
}

// value returns g for |δ| = x without learning from it.
func (g *routeGate) value(x, floor float64) float64 {
	alpha, beta := g.params(floor)
	return sigmoid(alpha*math.Abs(x) - beta)
}

// observe adds |δ| = x to the running distribution.
func (g *routeGate) observe(x float64) {
	x = math.Abs(x)
	g.lo.Add(x)
	g.hi.Add(x)
}

// route maps a gate value to a route.
func route(g float64) Route {
	switch {
	case g >= coreGate:
		return RouteCore
	case g >= shortGate:
		return RouteShort
	}
	return RouteNowhere
}

func sigmoid(x float64) float64 {
	if x < -40 {
		return 0
	}
	return 1 / (1 + math.Exp(-x))
}

// mid returns the gate's current midpoint β/α.
func (g *routeGate) mid(floor float64) float64 {
	alpha, beta := g.params(floor)
	return beta / alpha
}
