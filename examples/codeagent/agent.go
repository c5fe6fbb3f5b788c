package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/engram-go/engram/callbacks"
	"github.com/engram-go/engram/dmem"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/tools"
)

// agent solves tasks one after the other, with or without memory.
type agent struct {
	propose proposer
	// mem is nil for the run without memory; rw then is nil too.
	mem *dmem.Memory
	rw  *callbacks.Rewarder
	// work is where tasks are copied; maxAttempts bounds patches per task.
	work        string
	maxAttempts int
}

// outcome is how one task went.
type outcome struct {
	task     string
	attempts int    // patches tested
	fixedBy  string // the fix that passed; "" if none did
	elapsed  time.Duration
}

// solve copies t to a fresh directory, reads its error, and tests patches
// until one passes or the proposer runs out.
func (a *agent) solve(ctx context.Context, t task) (outcome, error) {
	start := time.Now()
	o := outcome{task: t.name}
	dir, err := os.MkdirTemp(a.work, t.name+"-")
	if err != nil {
		return o, err
	}
	if err := t.write(dir, nil); err != nil {
		return o, err
	}
	out, err := runGoTest(ctx, dir)
	if err == nil {
		return o, fmt.Errorf("task %s: tests already pass", t.name)
	}
	if ctx.Err() != nil {
		return o, ctx.Err()
	}
	p := problem{task: t, err: firstError(out)}

	var tool tools.Tool = goTest{dir: dir}
	if a.mem != nil {
		// Steps reach memory on the Rewarder's goroutine: wait for them.
		if err := a.rw.Flush(ctx); err != nil {
			return o, err
		}
		if p.recalled, err = recall(ctx, a.mem, p.err); err != nil {
			return o, err
		}
		tool = callbacks.WrapTool(tool, a.rw)
	}

	for o.attempts < a.maxAttempts {
		pt, err := a.propose.propose(ctx, p)
		if errors.Is(err, errNoIdeas) {
			break
		}
		if err != nil {
			return o, err
		}
		o.attempts++
		if err := t.write(dir, pt.files); err != nil {
			return o, err
		}
		if _, err := tool.Call(ctx, attempted(pt, p.err)); err == nil {
			o.fixedBy = pt.name
			if a.rw != nil {
				a.rw.HandleAgentFinish(ctx, schema.AgentFinish{
					ReturnValues: map[string]any{"output": "fixed " + t.name + " with " + pt.name},
				})
			}
			break
		}
		if ctx.Err() != nil {
			return o, ctx.Err()
		}
		p.tried = append(p.tried, pt.name)
	}
	o.elapsed = time.Since(start)
	return o, nil
}
