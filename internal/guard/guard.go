package guard

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync/atomic"

	"github.com/engram-go/engram"
)

// Limit is how many calls into one plug-in may run at once, calls a
// caller stopped waiting for included.
const Limit = 16

// Guard guards the calls into one plug-in. The zero value is not usable;
// use [New].
type Guard struct {
	name   string        // the plug-in, as errors and logs name it: "ratedistortion: long-term tier"
	slots  chan struct{} // one per running call
	logger *slog.Logger
	hook   func(error) // told of every failure; may be nil
	failed atomic.Int64
}

// New returns a guard for the plug-in called name in errors and logs.
// Panics are logged to logger; onFail, if not nil, is called with every
// failure, on the caller's goroutine, and must not block for long.
func New(name string, logger *slog.Logger, onFail func(error)) *Guard {
	if logger == nil {
		logger = slog.Default()
	}
	return &Guard{name: name, slots: make(chan struct{}, Limit), logger: logger, hook: onFail}
}

// Failed returns how many calls failed: returned an error, panicked, or
// were abandoned at their caller's deadline.
func (g *Guard) Failed() int64 { return g.failed.Load() }

// result is what a guarded call returned.
type result[T any] struct {
	v   T
	err error
}

// Do calls fn(ctx) through g, naming the call op in errors ("demote").
// It returns fn's result, or an error wrapping [engram.ErrPanicked] if fn
// panicked, or, as soon as ctx is done before fn returns, an error
// wrapping ctx's; fn then runs on, its result dropped. A ctx already done
// gives its error without calling fn, and counts as no failure of the
// plug-in's.
func Do[T any](ctx context.Context, g *Guard, op string, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, notCalled{fmt.Errorf("%s: %s: %w", g.name, op, err)}
	}
	select {
	case g.slots <- struct{}{}:
	case <-ctx.Done():
		return zero, g.fail(notCalled{fmt.Errorf("%s: %s: %d calls still running: %w", g.name, op, Limit, ctx.Err())})
	}
	done := make(chan result[T], 1)
	go func() {
		defer func() { <-g.slots }()
		v, err := call(ctx, g, op, fn)
		done <- result[T]{v, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return zero, g.fail(r.err)
		}
		return r.v, nil
	case <-ctx.Done():
		return zero, g.fail(fmt.Errorf("%s: %s: still running when the caller gave up: %w", g.name, op, ctx.Err()))
	}
}

// call runs fn, turning a panic into an error; the plug-in's own error is
// wrapped with the call's name.
func call[T any](ctx context.Context, g *Guard, op string, fn func(context.Context) (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			// The caller logs the error, which holds r; the stack is only here.
			g.logger.Error(g.name+": "+op+" panicked", "stack", string(debug.Stack()))
			var zero T
			v, err = zero, fmt.Errorf("%s: %s: %v: %w", g.name, op, r, engram.ErrPanicked)
		}
	}()
	v, err = fn(ctx)
	if err != nil {
		err = fmt.Errorf("%s: %s: %w", g.name, op, err)
	}
	return v, err
}

// fail counts err and tells the hook; it returns err. A hook that panics
// is logged: it is the user's too.
func (g *Guard) fail(err error) error {
	g.failed.Add(1)
	if g.hook != nil {
		func() {
			defer func() {
				if r := recover(); r != nil {
					g.logger.Error(g.name+": the error handler panicked", "panic", r, "error", err)
				}
			}()
			g.hook(err)
		}()
	}
	return err
}

// notCalled is the error of a call Do never made: ctx was done first.
type notCalled struct{ error }

func (e notCalled) Unwrap() error { return e.error }

// Called reports whether Do called its fn before returning err: false
// when ctx was done before it could. A fn that was called runs to its
// end, even past Do's return.
func Called(err error) bool {
	var n notCalled
	return !errors.As(err, &n)
}
