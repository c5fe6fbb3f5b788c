package dmem

import (
	"errors"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/boltstore"
	"github.com/engram-go/engram/internal/memopts"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/tokens"
)

// TestDeprecatedOptions: each old name sets what its new name sets.
func TestDeprecatedOptions(t *testing.T) {
	tests := []struct {
		name     string
		old, new Option
		field    func(o options) float64
	}{
		{"WithCapacity", WithCapacity(77), option.WithMaxUnits(77), func(o options) float64 { return float64(o.MaxUnits) }},
		{"WithMergeThreshold", WithMergeThreshold(0.5), option.WithRedundancyThreshold(0.5), func(o options) float64 { return o.Redundancy }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := built(t, tt.old), built(t, tt.new)
			if tt.field(a) != tt.field(b) || tt.field(a) == tt.field(defaults()) {
				t.Errorf("old name set %v, new name %v (default %v)", tt.field(a), tt.field(b), tt.field(defaults()))
			}
		})
	}
}

// TestMaxUnitsZero: 0 is no cap, as in ratedistortion.
func TestMaxUnitsZero(t *testing.T) {
	if o := built(t, option.WithMaxUnits(0)); o.MaxUnits != noCap {
		t.Fatalf("option.WithMaxUnits(0): capacity %d; want %d", o.MaxUnits, noCap)
	}
}

// TestEncoding: option.WithEncoding picks the counter; an unknown one is refused.
func TestEncoding(t *testing.T) {
	const text = "Здравствуйте, как дела? 你好世界 مرحبا بالعالم"
	for _, enc := range []tokens.Encoding{tokens.CL100kBase, tokens.O200kBase} {
		o := built(t, option.WithEncoding(enc))
		c, _ := tokens.Get(enc)
		if got, want := o.Counter(text), c.Count(text); got != want {
			t.Errorf("%s: counts %d, want %d", enc, got, want)
		}
	}
	if _, err := New(bg, option.WithEncoding("p50k_base")); !errors.Is(err, engram.ErrInvalidOption) {
		t.Fatalf("unknown encoding: err = %v, want ErrInvalidOption", err)
	}
}

// built returns the options opts build, failing t if they are refused.
func built(t *testing.T, opts ...Option) options {
	t.Helper()
	o := defaults()
	if err := memopts.Build(&o, &o.Shared, opts, o.check); err != nil {
		t.Fatal(err)
	}
	return o
}

// TestEmptyOptionAndNilStore: an empty option (the zero Option), and a
// store that is a nil pointer (what a failed Open returns), are refused
// with ErrInvalidOption, not a panic.
func TestEmptyOptionAndNilStore(t *testing.T) {
	if _, err := New(bg, option.WithTokenBudget(100), Option{}); !errors.Is(err, engram.ErrInvalidOption) {
		t.Errorf("an empty option: %v", err)
	}
	if _, err := New(bg, WithStore((*boltstore.Store)(nil))); !errors.Is(err, engram.ErrInvalidOption) {
		t.Errorf("a nil store: %v", err)
	}
}
