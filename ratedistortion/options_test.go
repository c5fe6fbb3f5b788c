package ratedistortion

import (
	"testing"
)

// TestDeprecatedOptions: each old name sets what its new name sets.
func TestDeprecatedOptions(t *testing.T) {
	tests := []struct {
		name     string
		old, new Option
		field    func(o options) float64
	}{
		{"WithRecencyHalfLife", WithRecencyHalfLife(3), WithHalfLife(3), func(o options) float64 { return o.HalfLife }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := defaults(), defaults()
			tt.old(&a)
			tt.new(&b)
			if tt.field(a) != tt.field(b) || tt.field(a) == tt.field(defaults()) {
				t.Errorf("old name set %v, new name %v (default %v)", tt.field(a), tt.field(b), tt.field(defaults()))
			}
		})
	}
}
