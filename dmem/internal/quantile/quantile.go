package quantile

import (
	"math"
	"slices"
)

// Estimator is the P² estimate of quantile P of the values added so far.
// The zero value estimates nothing; make one with [New].
type Estimator struct {
	P     float64    // the quantile, in [0, 1]
	N     int        // values added
	Q     [5]float64 // marker heights
	Pos   [5]float64 // marker positions
	Want  [5]float64 // desired positions
	Delta [5]float64 // desired position increments
}

// New returns an empty estimator of quantile p, in [0, 1].
func New(p float64) Estimator {
	return Estimator{P: p, Delta: [5]float64{0, p / 2, p, (1 + p) / 2, 1}}
}

// Valid reports whether e could have been made by New and Add: a restored
// estimator that is not would give estimates of no meaning.
func (e *Estimator) Valid() bool { return e.N >= 0 && e.P >= 0 && e.P <= 1 }

// Add adds x; NaN and infinities are ignored.
func (e *Estimator) Add(x float64) {
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

// parabolic is the P² formula's new height of marker i moved by s (±1).
func (e *Estimator) parabolic(i int, s float64) float64 {
	q, n := &e.Q, &e.Pos
	return q[i] + s/(n[i+1]-n[i-1])*((n[i]-n[i-1]+s)*(q[i+1]-q[i])/(n[i+1]-n[i])+
		(n[i+1]-n[i]-s)*(q[i]-q[i-1])/(n[i]-n[i-1]))
}

// Value returns the estimate: exact over the first five values, the
// middle marker after them; 0 before any value.
func (e *Estimator) Value() float64 {
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
