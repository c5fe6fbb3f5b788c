package gate

import (
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/engram-go/engram"
)

// Gate is a learned [engram.Scorer]: a logistic model of the probability
// that a unit will be needed later, learned online from hindsight. See the
// package doc.
type Gate struct {
	opts options
	w    atomic.Pointer[vector] // published weights; replaced, never changed

	mu      sync.Mutex // serialises learning; guards the fields below
	sq      vector     // AdaGrad: sum of squared gradients per weight
	updates uint64     // examples learned from
	pcg     *rand.PCG  // Fit's shuffling
}

var (
	_ engram.Scorer    = (*Gate)(nil)
	_ engram.Explainer = (*Gate)(nil)
)

// New returns a gate that knows nothing yet: every unit scores 0.5 until it
// learns. It fails with [engram.ErrInvalidOption] on a bad option.
func New(opts ...Option) (*Gate, error) {
	o := defaults()
	for _, opt := range opts {
		opt(&o)
	}
	if err := o.validate(); err != nil {
		return nil, err
	}
	g := &Gate{opts: o, pcg: rand.NewPCG(o.seed, o.seed^0x9e3779b97f4a7c15)}
	g.w.Store(new(vector))
	return g, nil
}

// weights returns the published weights; never nil.
func (g *Gate) weights() *vector {
	if w := g.w.Load(); w != nil {
		return w
	}
	return new(vector)
}

// Score returns the probability, in [0, 1], that the unit with features f
// will be needed later. It never waits for learning: it reads the last
// published weights.
func (g *Gate) Score(f engram.Features) float64 {
	x := phi(f)
	return sigmoid(dot(g.weights(), &x))
}

// Contributions splits the score into one part per feature the unit has
// (and the bias), on the logit scale: Score(f) = σ(Σ parts). A positive
// part argues for keeping the unit, a negative one for letting it go.
func (g *Gate) Contributions(f engram.Features) map[string]float64 {
	x := phi(f)
	w := g.weights()
	out := make(map[string]float64, numFeatures)
	for i := range x {
		if x[i] != 0 {
			out[featureNames[i]] = w[i] * x[i]
		}
	}
	return out
}

// Weights returns the current weight of every feature, by the names
// [Gate.Contributions] uses.
func (g *Gate) Weights() map[string]float64 {
	w := g.weights()
	out := make(map[string]float64, numFeatures)
	for i, n := range featureNames {
		out[n] = w[i]
	}
	return out
}

// Observe learns that the unit with features f was needed (label 1) or not
// (label 0); labels in between are soft. Use it for hindsight the caller
// has judged itself — a later turn referred back to the unit, or explicit
// feedback — and for supervised labels. NaN labels are ignored; others are
// clamped to [0, 1]. It costs O(#features) and never blocks Score.
func (g *Gate) Observe(f engram.Features, label float64) {
	if math.IsNaN(label) {
		return
	}
	x := phi(f)
	g.mu.Lock()
	g.learn(&x, clamp(label, 0, 1), 1)
	g.mu.Unlock()
}

// Hindsight learns from a reward that followed the unit's retrieval: the
// unit was in the memory the agent acted on, and the act earned reward.
// A positive reward teaches "needed", a negative one "not needed", each
// with weight min(1, |reward|); zero and non-finite rewards teach nothing.
func (g *Gate) Hindsight(f engram.Features, reward float64) {
	if reward == 0 || math.IsNaN(reward) || math.IsInf(reward, 0) {
		return
	}
	y := 0.0
	if reward > 0 {
		y = 1
	}
	x := phi(f)
	g.mu.Lock()
	g.learn(&x, y, min(1, math.Abs(reward)))
	g.mu.Unlock()
}

// Example is a unit's features and whether it was needed, for [Gate.Fit].
type Example struct {
	Features engram.Features
	Label    float64 // 1 needed, 0 not; in between is soft
}

// Fit is the supervised mode, for comparison with hindsight learning: it
// makes epochs passes over labelled examples, each in an order drawn from
// the gate's seed. Examples with NaN labels are skipped.
func (g *Gate) Fit(examples []Example, epochs int) {
	xs := make([]vector, len(examples))
	for i, e := range examples {
		xs[i] = phi(e.Features)
	}
	order := make([]int, len(examples))
	for i := range order {
		order[i] = i
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.pcg == nil {
		g.pcg = rand.NewPCG(g.opts.seed, g.opts.seed^0x9e3779b97f4a7c15)
	}
	r := rand.New(g.pcg)
	for range epochs {
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			if y := examples[i].Label; !math.IsNaN(y) {
				g.learn(&xs[i], clamp(y, 0, 1), 1)
			}
		}
	}
}

// learn takes one weighted AdaGrad step on the log loss of x against y and
// publishes the new weights. g.mu must be held.
func (g *Gate) learn(x *vector, y, weight float64) {
	o := g.opts
	if o.rate == 0 { // the zero Gate, e.g. one made to unmarshal into
		o = defaults()
	}
	w := *g.weights()
	e := weight * (sigmoid(dot(&w, x)) - y)
	for i, xi := range x {
		if xi == 0 {
			continue // absent features keep their weight: a sparse update
		}
		grad := e * xi
		if i != featBias {
			grad += o.l2 * w[i]
		}
		g.sq[i] = min(g.sq[i]+grad*grad, maxSq)
		if g.sq[i] > 0 {
			w[i] = max(-maxWeight, min(maxWeight, w[i]-o.rate*grad/math.Sqrt(g.sq[i])))
		}
	}
	g.updates++
	g.w.Store(&w)
}

// Bounds that keep a gate's state finite, so that a gate saves what it
// loads: weights beyond maxWeight would saturate the sigmoid for any input
// anyway, and squared-gradient sums past maxSq change no step size that
// matters.
const (
	maxWeight = 1e3
	maxSq     = 1e100
)

func dot(w, x *vector) float64 {
	var s float64
	for i := range x {
		s += w[i] * x[i]
	}
	return s
}
