package quantile

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// exact returns quantile p of xs by sorting.
func exact(xs []float64, p float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[int(math.Round(p*float64(len(s)-1)))]
}

// The estimate follows the exact quantile of streams of several shapes to
// within a small share of their spread.
func TestTracksExactQuantile(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tt := range []struct {
		name string
		draw func() float64
	}{
		{"uniform", r.Float64},
		{"normal", r.NormFloat64},
		{"exponential", r.ExpFloat64},
		{"skewed", func() float64 { return math.Pow(r.Float64(), 4) }},
	} {
		for _, p := range []float64{0.25, 0.5, 0.75} {
			e := New(p)
			xs := make([]float64, 20000)
			for i := range xs {
				xs[i] = tt.draw()
				e.Add(xs[i])
			}
			want := exact(xs, p)
			spread := exact(xs, 0.9) - exact(xs, 0.1)
			if got := e.Value(); math.Abs(got-want) > 0.02*spread {
				t.Errorf("%s p=%v: estimate %.4f, exact %.4f (spread %.3f)", tt.name, p, got, want, spread)
			}
		}
	}
}

// Before five values the estimate is the exact quantile of what was added;
// before any it is 0; NaN and infinities change nothing.
func TestSmallAndBadInput(t *testing.T) {
	e := New(0.5)
	if e.Value() != 0 {
		t.Fatalf("empty: %v", e.Value())
	}
	for _, x := range []float64{3, math.NaN(), 1, math.Inf(1), 2, math.Inf(-1)} {
		e.Add(x)
	}
	if e.N != 3 || e.Value() != 2 {
		t.Fatalf("after 3, 1, 2 and three bad values: n %d, median %v", e.N, e.Value())
	}
}

// An estimator saved as JSON and read back goes on exactly as the one that
// was not saved; one whose count or quantile is out of range is not valid.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	a := New(0.75)
	for range 1000 {
		a.Add(r.Float64())
	}
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var c Estimator
	if err := json.Unmarshal(b, &c); err != nil || !c.Valid() {
		t.Fatalf("read back: %v, valid %v", err, c.Valid())
	}
	for range 1000 {
		x := r.Float64()
		a.Add(x)
		c.Add(x)
	}
	if a != c {
		t.Fatalf("diverged: %+v against %+v", c, a)
	}
	for _, bad := range []Estimator{{P: -0.1}, {P: 1.5}, {P: 0.5, N: -1}, {P: math.NaN()}} {
		if bad.Valid() {
			t.Errorf("%+v is valid", bad)
		}
	}
}
