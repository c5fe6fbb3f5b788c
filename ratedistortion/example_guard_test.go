package ratedistortion_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
)

// brokenTier is a long-term tier with a bug: it panics on every call.
type brokenTier struct{}

func (brokenTier) Demote(context.Context, []engram.Demoted) error { panic("index out of range") }
func (brokenTier) Recall(context.Context, string, int) ([]engram.Unit, error) {
	panic("index out of range")
}
func (brokenTier) Reward(context.Context, float64) error { panic("index out of range") }

// A tier that panics costs the buffer nothing but the tier: saves and
// loads succeed, what the cap let go stays queued, and each failure is
// counted and passed to the error handler.
func Example_errorHandler() {
	ctx := context.Background()
	var failed []error
	mem, err := ratedistortion.New(
		option.WithMaxUnits(4),
		ratedistortion.WithLongTerm(brokenTier{}),
		option.WithErrorHandler(func(err error) { failed = append(failed, err) }),
		option.WithLogger(slog.New(slog.DiscardHandler)),
	)
	if err != nil {
		panic(err)
	}
	for i := range 4 {
		in := map[string]any{"input": fmt.Sprintf("Question %d about the boat?", i)}
		if err := mem.SaveContext(ctx, in, map[string]any{"output": fmt.Sprintf("Answer %d.", i)}); err != nil {
			panic(err)
		}
	}
	if _, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": "the boat"}); err != nil {
		panic(err)
	}
	st := mem.Stats()
	fmt.Println(st.Units+st.Queued, "units kept or queued")
	fmt.Println(st.Failures.LongTerm == int64(len(failed)), errors.Is(failed[0], engram.ErrPanicked))
	// Output:
	// 8 units kept or queued
	// true true
}
