package callbacks

import (
	"fmt"
	"time"

	"github.com/engram-go/engram"
)

// Option configures a [Rewarder].
type Option func(*options)

type options struct {
	reward  RewardFunc
	queue   int
	timeout time.Duration
	maxText int
	onError func(engram.Step, error)
	now     func() time.Time
}

func defaults() options {
	return options{
		reward:  DefaultReward,
		queue:   256,
		timeout: 10 * time.Second,
		maxText: 2000,
	}
}

// WithRewardFunc sets how a step is scored. Default [DefaultReward].
func WithRewardFunc(f RewardFunc) Option { return func(o *options) { o.reward = f } }

// WithQueueSize sets how many events may wait for delivery; past that,
// events are dropped and counted. Default 256; must be positive and at
// most [MaxQueueSize].
func WithQueueSize(n int) Option { return func(o *options) { o.queue = n } }

// WithTimeout bounds each call to the sink. Default 10s; must be positive.
func WithTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// WithMaxText sets the most bytes of a step's text; longer text (a fetched
// web page, say) is cut at a rune boundary and ends in "…". Default 2000;
// must be positive.
func WithMaxText(n int) Option { return func(o *options) { o.maxText = n } }

// WithErrorHandler sets a function told of each sink call that failed or
// panicked, with the step it carried. It runs on the delivery goroutine and
// must not block for long. Default nil: failures are only counted.
func WithErrorHandler(f func(engram.Step, error)) Option { return func(o *options) { o.onError = f } }

// WithClock sets the clock that stamps steps. Default time.Now.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// MaxQueueSize is the largest queue [WithQueueSize] sets: its buffer is
// allocated whole when the Rewarder is made, a few hundred bytes an event.
const MaxQueueSize = 1 << 20

func (o *options) validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("callbacks: %s: %w", fmt.Sprintf(format, a...), engram.ErrInvalidOption)
	}
	switch {
	case o.reward == nil:
		return bad("nil reward func")
	case o.queue <= 0 || o.queue > MaxQueueSize:
		return bad("queue size %d not in [1, %d]", o.queue, MaxQueueSize)
	case o.timeout <= 0:
		return bad("timeout %v must be positive", o.timeout)
	case o.maxText <= 0:
		return bad("max text %d must be positive", o.maxText)
	}
	if o.now == nil {
		o.now = time.Now
	}
	return nil
}
