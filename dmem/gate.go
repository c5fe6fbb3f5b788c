package dmem

import (
	"math"
	"slices"
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

// routeGate is g = σ(α|δ| − β), with α and β set from streaming quantiles of the
// |δ| it has seen: the midpoint β/α is the upper quantile plus fence times
// the spread between the quantiles, clamped to [minMid, maxMid]; the slope α
// is steep/spread, so the gate is as sharp as the distribution is narrow.
type routeGate struct {
	lo, hi         quantile
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
	return routeGate{lo: newQuantile(0.25), hi: newQuantile(0.5), minMid: 0.3, maxMid: 0.42, minSpread: 0.1, steep: 4}
}

// rewardGate gates reward prediction errors, whose scale is whatever the
// caller's rewards are: a step is surprising when |δ| lies beyond Tukey's
// inner fence of the running distribution, Q3 + 1.5·IQR.
func rewardGate() routeGate {
	return routeGate{lo: newQuantile(0.25), hi: newQuantile(0.75), fence: 1.5, maxMid: math.Inf(1), steep: 4}
}

// params returns α and β; floor is the smallest midpoint allowed besides
// minMid (the reward gate's scale floor).
func (g *routeGate) params(floor float64) (alpha, beta float64) {
	lo, hi := g.lo.value(), g.hi.value()
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
	g.lo.add(x)
	g.hi.add(x)
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

// quantile is Jain and Chlamtac's P² estimator of one quantile: five
// markers, constant memory, no stored samples.
type quantile struct {
	P     float64
	N     int
	Q     [5]float64 // marker heights
	Pos   [5]float64 // marker positions
	Want  [5]float64 // desired positions
	Delta [5]float64 // desired position increments
}

func newQuantile(p float64) quantile {
	return quantile{P: p, Delta: [5]float64{0, p / 2, p, (1 + p) / 2, 1}}
}

func (e *quantile) add(x float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return
	}
	if e.N < 5 {
		e.Q[e.N] = x
		e.N++
		if e.N == 5 {
			slices.Sort(e.Q[:])
			p := e.P
			e.Pos = [5]float64{1, 2, 3, 4, 5}
			e.Want = [5]float64{1, 1 + 2*p, 1 + 4*p, 3 + 2*p, 5}
		}
		return
	}
	e.N++
	var k int
	switch {
	case x < e.Q[0]:
		e.Q[0], k = x, 0
	case x >= e.Q[4]:
		e.Q[4], k = x, 3
	default:
		for k = 0; k < 3 && x >= e.Q[k+1]; k++ {
		}
	}
	for i := k + 1; i < 5; i++ {
		e.Pos[i]++
	}
	for i := range e.Want {
		e.Want[i] += e.Delta[i]
	}
	for i := 1; i <= 3; i++ {
		d := e.Want[i] - e.Pos[i]
		if (d >= 1 && e.Pos[i+1]-e.Pos[i] > 1) || (d <= -1 && e.Pos[i-1]-e.Pos[i] < -1) {
			s := math.Copysign(1, d)
			q := e.parabolic(i, s)
			if e.Q[i-1] < q && q < e.Q[i+1] {
				e.Q[i] = q
			} else {
				j := i + int(s)
				e.Q[i] += s * (e.Q[j] - e.Q[i]) / (e.Pos[j] - e.Pos[i])
			}
			e.Pos[i] += s
		}
	}
}

func (e *quantile) parabolic(i int, s float64) float64 {
	q, n := &e.Q, &e.Pos
	return q[i] + s/(n[i+1]-n[i-1])*((n[i]-n[i-1]+s)*(q[i+1]-q[i])/(n[i+1]-n[i])+
		(n[i+1]-n[i]-s)*(q[i]-q[i-1])/(n[i]-n[i-1]))
}

// value returns the estimate; 0 before any sample.
func (e *quantile) value() float64 {
	if e.N == 0 {
		return 0
	}
	if e.N < 5 {
		s := slices.Clone(e.Q[:e.N])
		slices.Sort(s)
		return s[int(math.Round(e.P*float64(e.N-1)))]
	}
	return e.Q[2]
}

// mid returns the gate's current midpoint β/α.
func (g *routeGate) mid(floor float64) float64 {
	alpha, beta := g.params(floor)
	return beta / alpha
}
