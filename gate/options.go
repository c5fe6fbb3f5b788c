package gate

import (
	"fmt"
	"math"

	"github.com/engram-go/engram"
)

// Option configures a [Gate].
type Option func(*options)

type options struct {
	seed uint64
	rate float64
	l2   float64
}

const (
	defaultRate = 0.5
	defaultL2   = 1e-4
)

func defaults() options { return options{seed: 1, rate: defaultRate, l2: defaultL2} }

// WithSeed sets the seed of the gate's only randomness, the order in which
// [Gate.Fit] visits examples. Equal seeds and equal observations give equal
// weights, bit for bit. Default 1.
func WithSeed(s uint64) Option { return func(o *options) { o.seed = s } }

// WithLearningRate sets the AdaGrad step size, in (0, 10]. Default 0.5.
func WithLearningRate(r float64) Option { return func(o *options) { o.rate = r } }

// WithL2 sets the L2 penalty that pulls unused weights back towards 0, in
// [0, 1). Default 1e-4.
func WithL2(l float64) Option { return func(o *options) { o.l2 = l } }

func (o *options) validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("gate: %s: %w", fmt.Sprintf(format, a...), engram.ErrInvalidOption)
	}
	switch {
	case !(o.rate > 0 && o.rate <= 10):
		return bad("learning rate %v not in (0, 10]", o.rate)
	case !(o.l2 >= 0 && o.l2 < 1) || math.IsNaN(o.l2):
		return bad("L2 penalty %v not in [0, 1)", o.l2)
	}
	return nil
}
