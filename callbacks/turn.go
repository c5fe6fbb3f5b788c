package callbacks

import (
	"context"
	"fmt"
	"sync"

	"github.com/engram-go/engram"
	"github.com/tmc/langchaingo/schema"
)

// turns holds, per context, the events of an agent run whose memory is a
// [Rewarder.Memory]: its tool steps wait for the run's SaveContext, which
// stores them between the question and the answer. langchaingo calls the
// memory's LoadMemoryVariables and SaveContext, and the run's handlers,
// with one context, which is the key (see runs).
type turns struct {
	mu sync.Mutex // guards m
	m  map[context.Context][]event
}

// open starts holding the events of the run of ctx and returns those a
// run on ctx held and never saved (it failed without an error event, say).
func (ts *turns) open(ctx context.Context) (stale []event) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	defer func() { _ = recover() }() // unhashable context: not held
	stale, had := ts.m[ctx]
	if !had && len(ts.m) >= maxRuns {
		for k, evs := range ts.m {
			stale = append(stale, evs...)
			delete(ts.m, k)
		}
	}
	ts.m[ctx] = []event{}
	return stale
}

// hold keeps ev for the turn of its run, if one is open.
func (ts *turns) hold(ev event) (held bool) {
	ctx := runKey(ev.ctx)
	ts.mu.Lock()
	defer ts.mu.Unlock()
	defer func() { _ = recover() }()
	evs, ok := ts.m[ctx]
	if ok {
		ts.m[ctx] = append(evs, ev)
	}
	return ok
}

// take ends the turn of ctx and returns what it held.
func (ts *turns) take(ctx context.Context) (evs []event) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	defer func() { _ = recover() }()
	evs = ts.m[ctx]
	delete(ts.m, ctx)
	return evs
}

// drain ends every turn and returns what they held.
func (ts *turns) drain() (evs []event) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for k, held := range ts.m {
		evs = append(evs, held...)
		delete(ts.m, k)
	}
	return evs
}

// Memory returns mem, normally the Rewarder's sink, as the memory of an
// agent executor whose handler is r, so that a run's tool steps are stored
// in their turn:
//
//	Human: What is 2+2?
//	tool: calculator(2+2) → 4
//	AI: 4
//
// Without it, the executor's SaveContext stores the question and answer
// while the tool steps are still on their way to the sink, and they land
// after the answer. With it, a run's tool results and errors and its finish
// wait for its SaveContext, which stores the question, has the tool steps
// delivered, stores the answer, then rewards it. Waiting for delivery is
// bounded by [WithTimeout]: a slow sink delays a run by at most that much,
// and past it the steps arrive late rather than never. A run that fails,
// for which langchaingo skips SaveContext, has its steps delivered before
// the chain error.
//
// The question and the answer are saved apart, each with the other side
// blank; both engram backends store only the side that is not. Runs are
// told apart by their context, as for the handler: concurrent runs must not
// share one context value.
func (r *Rewarder) Memory(mem schema.Memory) schema.Memory {
	return &turnMemory{Memory: mem, r: r}
}

// turnMemory is a memory whose SaveContext stores a run's held tool steps
// between its input and its output.
type turnMemory struct {
	schema.Memory
	r *Rewarder
}

var _ schema.Memory = (*turnMemory)(nil)

// LoadMemoryVariables loads from the memory and starts holding the run's
// tool steps: langchaingo loads before the run starts.
func (t *turnMemory) LoadMemoryVariables(ctx context.Context, inputs map[string]any) (map[string]any, error) {
	vars, err := t.Memory.LoadMemoryVariables(ctx, inputs)
	if err != nil {
		return vars, err
	}
	for _, ev := range t.r.turns.open(ctx) {
		t.r.enqueue(ev)
	}
	return vars, nil
}

// SaveContext stores the input, the run's tool steps, then the output, and
// rewards the output if the run finished.
func (t *turnMemory) SaveContext(ctx context.Context, inputs, outputs map[string]any) error {
	var steps, after []event
	for _, ev := range t.r.turns.take(ctx) {
		if ev.step.Kind == engram.StepFinish {
			after = append(after, ev)
		} else {
			steps = append(steps, ev)
		}
	}
	defer func() {
		for _, ev := range after {
			t.r.enqueue(ev)
		}
	}()
	if len(steps) == 0 {
		return t.Memory.SaveContext(ctx, inputs, outputs)
	}
	err := t.Memory.SaveContext(ctx, inputs, blank(outputs))
	for _, ev := range steps {
		t.r.enqueue(ev)
	}
	if err != nil {
		return fmt.Errorf("callbacks: save the input: %w", err)
	}
	wait, cancel := context.WithTimeout(ctx, t.r.opts.timeout)
	_ = t.r.Flush(wait) // past the bound, the steps arrive after the answer
	cancel()
	return t.Memory.SaveContext(ctx, blank(inputs), outputs)
}

// blank returns m with its strings emptied, for a memory to store the other side only.
func blank(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if _, ok := v.(string); ok {
			v = ""
		}
		out[k] = v
	}
	return out
}
