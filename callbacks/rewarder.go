package callbacks

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/memopts"
	lcb "github.com/tmc/langchaingo/callbacks"
	"github.com/tmc/langchaingo/schema"
)

// Rewarder is a langchaingo callbacks.Handler that turns an agent's steps
// into rewards for a memory. See the package doc for what it reports and how.
type Rewarder struct {
	lcb.SimpleHandler

	sink engram.RewardSink
	opts options

	queue   chan event
	start   sync.Once          // starts the delivery goroutine on first use
	stop    chan struct{}      // closed by Close: deliver what is queued, then exit
	abandon context.Context    // cancelled when Close gives up waiting
	giveUp  context.CancelFunc // cancels abandon
	done    chan struct{}      // closed when the delivery goroutine has exited

	mu     sync.RWMutex // held for reading while queuing, so Close sees every queued event
	closed bool

	runs  runs  // what each run in flight has started and reported
	turns turns // events held for the SaveContext of a Memory's run

	queued, delivered, dropped, failed, panicked atomic.Int64
}

var _ lcb.Handler = (*Rewarder)(nil)

// Stats counts what happened to the events a [Rewarder] received. Once
// [Rewarder.Flush] or [Rewarder.Close] has returned nil, every queued event
// has been delivered, has failed or has panicked.
type Stats struct {
	// Queued counts events accepted for delivery.
	Queued int64
	// Delivered counts events whose sink calls all returned nil.
	Delivered int64
	// Dropped counts events lost because the queue was full, the Rewarder
	// was closed, or Close gave up before delivering them.
	Dropped int64
	// Failed counts events for which the sink returned an error.
	Failed int64
	// Panicked counts events for which the sink or the reward function panicked.
	Panicked int64
}

// event is one handler call waiting for delivery.
type event struct {
	ctx     context.Context
	step    engram.Step // Kind and Time; Reward for feedback
	subject string      // what the step was about: "tool(input)" or a run's input
	output  string
	err     error
	flush   chan struct{} // non-nil for a Flush marker
}

// New returns a Rewarder feeding sink. A nil sink (or a nil pointer in
// it) or a nil option is refused with an error wrapping
// [engram.ErrInvalidOption]. It starts no goroutine: the first
// event starts the one that delivers, and [Rewarder.Close] stops it.
func New(sink engram.RewardSink, opts ...Option) (*Rewarder, error) {
	if sink == nil || memopts.NilPointer(sink) {
		return nil, fmt.Errorf("callbacks: nil sink (%T): %w", sink, engram.ErrInvalidOption)
	}
	o := defaults()
	if err := memopts.Apply("callbacks", &o, opts); err != nil {
		return nil, err
	}
	if err := o.validate(); err != nil {
		return nil, err
	}
	abandon, giveUp := context.WithCancel(context.Background())
	return &Rewarder{
		sink:    sink,
		opts:    o,
		queue:   make(chan event, o.queue),
		stop:    make(chan struct{}),
		abandon: abandon,
		giveUp:  giveUp,
		done:    make(chan struct{}),
		runs:    runs{m: make(map[context.Context][]*frame)},
		turns:   turns{m: make(map[context.Context][]event)},
	}, nil
}

// Stats returns the event counts so far.
func (r *Rewarder) Stats() Stats {
	return Stats{
		Queued:    r.queued.Load(),
		Delivered: r.delivered.Load(),
		Dropped:   r.dropped.Load(),
		Failed:    r.failed.Load(),
		Panicked:  r.panicked.Load(),
	}
}

// Feedback reports a user's rating of the agent's latest answer, such as
// [ThumbsUp], [ThumbsDown] or any finite scalar. The rating is a Reward on
// the memory: both engram memories credit it to what the latest load
// showed, before or after the rated exchange was saved. A non-empty note is
// then Observed as a feedback step without a reward, so that the rating
// counts once. Like every handler method it only queues.
func (r *Rewarder) Feedback(ctx context.Context, rating float64, note string) {
	r.enqueue(event{ctx: ctx, step: engram.Step{Kind: engram.StepFeedback, Reward: rating}, output: note})
}

// HandleChainStart remembers the run's input, to describe the run if it fails.
func (r *Rewarder) HandleChainStart(ctx context.Context, inputs map[string]any) {
	r.runs.push(ctx, inputText(inputs))
}

// HandleChainEnd forgets what HandleChainStart remembered.
func (r *Rewarder) HandleChainEnd(ctx context.Context, _ map[string]any) { r.runs.pop(ctx) }

// HandleChainError reports a failed chain as an [engram.StepChainError] with
// the input it was given, unless the error was already reported by a tool or
// an inner chain of the same run.
func (r *Rewarder) HandleChainError(ctx context.Context, err error) {
	input, seen := r.runs.fail(ctx, err)
	for _, ev := range r.turns.take(runKey(ctx)) {
		r.enqueue(ev) // langchaingo skips the failed run's SaveContext
	}
	if seen {
		return
	}
	r.enqueue(event{ctx: ctx, step: engram.Step{Kind: engram.StepChainError}, subject: input, err: err})
}

// HandleAgentAction remembers the tool the agent chose, to name the tool's
// result when the tool reports without [WrapTool].
func (r *Rewarder) HandleAgentAction(ctx context.Context, a schema.AgentAction) {
	r.runs.action(ctx, a.Tool, a.ToolInput)
}

// HandleToolStart remembers the tool's input when the tool was not wrapped.
func (r *Rewarder) HandleToolStart(ctx context.Context, input string) {
	if _, ok := ctx.Value(callKey{}).(*call); !ok {
		r.runs.action(ctx, "", input)
	}
}

// HandleToolEnd reports a tool's output as an [engram.StepToolResult].
func (r *Rewarder) HandleToolEnd(ctx context.Context, output string) {
	r.report(event{ctx: ctx, step: engram.Step{Kind: engram.StepToolResult}, subject: r.toolSubject(ctx), output: output})
}

// HandleToolError reports a tool's failure as an [engram.StepToolError].
func (r *Rewarder) HandleToolError(ctx context.Context, err error) {
	subject := r.toolSubject(ctx)
	r.runs.reported(runKey(ctx), err)
	r.report(event{ctx: ctx, step: engram.Step{Kind: engram.StepToolError}, subject: subject, err: err})
}

// HandleAgentFinish reports the end of a run as an [engram.StepFinish]. The
// executor's "not finished before max iterations" is left to the chain error
// that always follows it.
func (r *Rewarder) HandleAgentFinish(ctx context.Context, f schema.AgentFinish) {
	out, _ := f.ReturnValues["output"].(string)
	if out == errNotFinished {
		return
	}
	if out == "" {
		out = f.Log
	}
	r.report(event{ctx: ctx, step: engram.Step{Kind: engram.StepFinish}, output: out})
}

func (r *Rewarder) toolSubject(ctx context.Context) string {
	var name, input string
	if c, ok := ctx.Value(callKey{}).(*call); ok {
		name, input = c.name, c.input
	} else {
		name, input = r.runs.tool(ctx)
	}
	if name == "" {
		name = "tool"
	}
	if input == "" {
		return name
	}
	return name + "(" + input + ")"
}

// report holds ev for the SaveContext of its run when the run's memory is
// a [Rewarder.Memory], and otherwise queues it.
func (r *Rewarder) report(ev event) {
	if ev.ctx == nil {
		ev.ctx = context.Background()
	}
	ev.step.Time = r.opts.now()
	r.mu.RLock()
	held := !r.closed && r.turns.hold(ev)
	r.mu.RUnlock()
	if !held {
		r.enqueue(ev)
	}
}

// enqueue queues ev without blocking, or counts it dropped.
func (r *Rewarder) enqueue(ev event) {
	if ev.ctx == nil {
		ev.ctx = context.Background()
	}
	if ev.step.Time.IsZero() {
		ev.step.Time = r.opts.now()
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.closed {
		r.dropped.Add(1)
		return
	}
	r.push(ev)
}

// push queues ev without blocking, or counts it dropped. r.mu is held.
func (r *Rewarder) push(ev event) {
	r.start.Do(func() { go r.run() })
	select {
	case r.queue <- ev:
		r.queued.Add(1)
	default:
		r.dropped.Add(1)
	}
}

// Flush waits until every event queued before it has been handed to the
// sink, or ctx is done; the steps a run of a [Rewarder.Memory] holds are
// queued by its SaveContext. It returns an error wrapping
// [engram.ErrClosed] after Close.
func (r *Rewarder) Flush(ctx context.Context) error {
	r.mu.RLock()
	closed := r.closed
	if !closed {
		r.start.Do(func() { go r.run() })
	}
	r.mu.RUnlock()
	if closed {
		return fmt.Errorf("callbacks: flush: %w", engram.ErrClosed)
	}
	mark := make(chan struct{})
	select {
	case r.queue <- event{flush: mark}:
	case <-r.done:
		return fmt.Errorf("callbacks: flush: %w", engram.ErrClosed)
	case <-ctx.Done():
		return fmt.Errorf("callbacks: flush: %w", ctx.Err())
	}
	select {
	case <-mark:
		return nil
	case <-r.done:
		// Close may have drained the queue and stopped the goroutine just
		// before the mark went in; then nobody will ever close it.
		select {
		case <-mark:
			return nil
		default:
			return fmt.Errorf("callbacks: flush: %w", engram.ErrClosed)
		}
	case <-ctx.Done():
		return fmt.Errorf("callbacks: flush: %w", ctx.Err())
	}
}

// Close stops accepting events, delivers those already queued (and those
// held for a turn never saved), and stops the delivery goroutine. If ctx
// ends first, Close returns its error at once and the events still queued
// are dropped (the call in progress is cancelled). Events after Close are
// dropped. Close may be called again.
func (r *Rewarder) Close(ctx context.Context) error {
	r.mu.Lock()
	first := !r.closed
	if first {
		for _, ev := range r.turns.drain() {
			r.push(ev) // a turn never saved: deliver what it held
		}
	}
	r.closed = true
	r.mu.Unlock()
	if first {
		r.start.Do(func() { close(r.done) }) // never started: nothing to drain
		close(r.stop)
	}
	select {
	case <-r.done:
		return nil
	case <-ctx.Done():
		r.giveUp()
		return fmt.Errorf("callbacks: close: %w", ctx.Err())
	}
}

// run is the delivery goroutine.
func (r *Rewarder) run() {
	defer close(r.done)
	for {
		select {
		case ev := <-r.queue:
			r.handle(ev)
		case <-r.stop:
			for {
				select {
				case ev := <-r.queue:
					r.handle(ev)
				default:
					return
				}
			}
		}
	}
}

func (r *Rewarder) handle(ev event) {
	if ev.flush != nil {
		close(ev.flush)
		return
	}
	if r.abandon.Err() != nil {
		r.dropped.Add(1)
		return
	}
	step, err := r.score(ev)
	if err == nil {
		err = r.deliver(ev.ctx, step)
	}
	var p panicError
	switch {
	case err == nil:
		r.delivered.Add(1)
		return
	case asPanic(err, &p):
		r.panicked.Add(1)
	default:
		r.failed.Add(1)
	}
	if r.opts.onError != nil {
		func() {
			defer func() { _ = recover() }() // a broken error hook must not stop delivery
			r.opts.onError(step, err)
		}()
	}
}

// score builds ev's step and scores it with the reward function.
func (r *Rewarder) score(ev event) (step engram.Step, err error) {
	defer recoverInto(&err, "reward func")
	step = ev.step
	step.Text = truncate(describe(ev), r.opts.maxText)
	step.Reward = r.opts.reward(step)
	return step, nil
}

// deliver hands step to the sink, bounded by the timeout and by Close giving
// up. The event's context values are kept, its cancellation is not: the run
// that produced the event has usually ended by now.
func (r *Rewarder) deliver(parent context.Context, step engram.Step) (err error) {
	defer recoverInto(&err, "sink")
	ctx, cancel := context.WithTimeout(context.WithoutCancel(parent), r.opts.timeout)
	defer cancel()
	defer context.AfterFunc(r.abandon, cancel)()
	switch step.Kind {
	case engram.StepFinish:
		return r.sink.Reward(ctx, step.Reward)
	case engram.StepFeedback:
		if err := r.sink.Reward(ctx, step.Reward); err != nil || step.Text == "" {
			return err
		}
		// The rating is given once, to the answer it rates; a sink that
		// counts an observed step's reward (dmem does) would count it twice.
		step.Reward = 0
	}
	return r.sink.Observe(ctx, step)
}
