package ratedistortion

import (
	"math"
	"testing"
)

func TestPowerMatchesPow(t *testing.T) {
	for _, x := range []float64{0, 1e-9, 0.3, 0.999, 1, 1.7, 24, 1e20} {
		for _, y := range []float64{2, 3, 12, 13, 64, 0.5, 2.5, 65} {
			got, want := power(x, y), math.Pow(x, y)
			if !(got == want || math.Abs(got-want) <= 1e-12*math.Abs(want)) {
				t.Errorf("power(%v, %v) = %v, math.Pow %v", x, y, got, want)
			}
		}
	}
}
