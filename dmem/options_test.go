package dmem

import (
	"errors"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/boltstore"
	"github.com/engram-go/engram/tokens"
)

// TestDeprecatedOptions: each old name sets what its new name sets.
func TestDeprecatedOptions(t *testing.T) {
	tests := []struct {
		name     string
		old, new Option
		field    func(o options) float64
	}{
		{"WithCapacity", WithCapacity(77), WithMaxUnits(77), func(o options) float64 { return float64(o.MaxUnits) }},
		{"WithMergeThreshold", WithMergeThreshold(0.5), WithRedundancyThreshold(0.5), func(o options) float64 { return o.Redundancy }},
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

// TestMaxUnitsZero: 0 is no cap, as in ratedistortion.
func TestMaxUnitsZero(t *testing.T) {
	o := defaults()
	WithMaxUnits(0)(&o)
	if err := o.validate(); err != nil || o.MaxUnits != noCap {
		t.Fatalf("WithMaxUnits(0): capacity %d, err %v; want %d", o.MaxUnits, err, noCap)
	}
}

// TestEncoding: WithEncoding picks the counter; an unknown one is refused.
func TestEncoding(t *testing.T) {
	const text = "Здравствуйте, как дела? 你好世界 مرحبا بالعالم"
	for _, enc := range []tokens.Encoding{tokens.CL100kBase, tokens.O200kBase} {
		o := defaults()
		WithEncoding(enc)(&o)
		if err := o.validate(); err != nil {
			t.Fatal(err)
		}
		c, _ := tokens.Get(enc)
		if got, want := o.Counter(text), c.Count(text); got != want {
			t.Errorf("%s: counts %d, want %d", enc, got, want)
		}
	}
	if _, err := New(bg, WithEncoding("p50k_base")); !errors.Is(err, engram.ErrInvalidOption) {
		t.Fatalf("unknown encoding: err = %v, want ErrInvalidOption", err)
	}
}

// TestNilOptionAndStore: a nil option, and a store that is a nil pointer
// (what a failed Open returns), are refused with ErrInvalidOption, not a
// panic.
func TestNilOptionAndStore(t *testing.T) {
	if _, err := New(bg, WithTokenBudget(100), nil); !errors.Is(err, engram.ErrInvalidOption) {
		t.Errorf("a nil option: %v", err)
	}
	if _, err := New(bg, WithStore((*boltstore.Store)(nil))); !errors.Is(err, engram.ErrInvalidOption) {
		t.Errorf("a nil store: %v", err)
	}
}
