package callbacks

import (
	"context"
	"errors"
	"sync"
)

// maxRuns bounds the runs remembered at once. A chain that panics never
// reports its end; past the bound, everything remembered is forgotten.
const maxRuns = 1024

// frame is what the handler knows of one chain in flight.
type frame struct {
	input     string // the chain's input, to describe it if it fails
	tool      string // the tool the agent chose last, and its input
	toolInput string
	reported  error // an error already reported inside this chain
}

// runs remembers, per context, the chains in flight, innermost last.
// langchaingo passes a chain's start and its end or error the same context,
// and no run identifier, so the context is the key. Concurrent runs that
// share one context value (the bare context.Background(), say) share a
// stack and may mix up inputs; any derived context is distinct.
type runs struct {
	mu sync.Mutex // guards m
	m  map[context.Context][]*frame
}

// runKey returns the context a chain in flight is filed under: a wrapped
// tool's events carry the context the tool was called with.
func runKey(ctx context.Context) context.Context {
	if c, ok := ctx.Value(callKey{}).(*call); ok {
		return c.parent
	}
	return ctx
}

// with runs f on the stack of ctx under the lock. A context that cannot be
// a map key (a struct holding a slice, say) is not tracked.
func (rs *runs) with(ctx context.Context, f func(stack []*frame) []*frame) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	defer func() { _ = recover() }() // unhashable context
	stack := f(rs.m[ctx])
	if len(stack) == 0 {
		delete(rs.m, ctx)
		return
	}
	if _, ok := rs.m[ctx]; !ok && len(rs.m) >= maxRuns {
		clear(rs.m)
	}
	rs.m[ctx] = stack
}

func (rs *runs) push(ctx context.Context, input string) {
	rs.with(ctx, func(s []*frame) []*frame { return append(s, &frame{input: input}) })
}

func (rs *runs) pop(ctx context.Context) (top *frame) {
	rs.with(ctx, func(s []*frame) []*frame {
		if len(s) == 0 {
			return s
		}
		top = s[len(s)-1]
		return s[:len(s)-1]
	})
	return top
}

// fail pops the chain that failed with err and returns its input, and
// whether err was already reported inside it. Either way the enclosing
// chain learns that err has been reported.
func (rs *runs) fail(ctx context.Context, err error) (input string, seen bool) {
	rs.with(ctx, func(s []*frame) []*frame {
		if len(s) == 0 {
			return s
		}
		top := s[len(s)-1]
		input = top.input
		seen = top.reported != nil && err != nil && errors.Is(err, top.reported)
		s = s[:len(s)-1]
		if len(s) > 0 {
			s[len(s)-1].reported = err
		}
		return s
	})
	return input, seen
}

// reported records that err has been reported inside the innermost chain.
func (rs *runs) reported(ctx context.Context, err error) {
	rs.with(ctx, func(s []*frame) []*frame {
		if len(s) > 0 {
			s[len(s)-1].reported = err
		}
		return s
	})
}

// action records the tool the innermost chain is about to call; an empty
// name keeps the one recorded before.
func (rs *runs) action(ctx context.Context, tool, input string) {
	rs.with(ctx, func(s []*frame) []*frame {
		if len(s) > 0 {
			top := s[len(s)-1]
			if tool != "" {
				top.tool = tool
			}
			top.toolInput = input
		}
		return s
	})
}

func (rs *runs) tool(ctx context.Context) (name, input string) {
	rs.with(ctx, func(s []*frame) []*frame {
		if len(s) > 0 {
			name, input = s[len(s)-1].tool, s[len(s)-1].toolInput
		}
		return s
	})
	return name, input
}
