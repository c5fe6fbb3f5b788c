package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/engram-go/engram/callbacks"
	"github.com/engram-go/engram/dmem"
)

// config is what the flags choose.
type config struct {
	llm, model  string
	path        string
	maxAttempts int
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("codeagent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.llm, "llm", "offline", "who proposes patches: offline (a catalogue, no LLM), ollama or openai")
	fs.StringVar(&c.model, "model", "", "the model for -llm ollama or openai (default llama3.1 for ollama; the client's for openai)")
	fs.StringVar(&c.path, "path", "", "a directory that keeps D-MEM's memory across runs (default: in memory only)")
	fs.IntVar(&c.maxAttempts, "attempts", 8, "the most patches tried per task")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if c.maxAttempts < 1 {
		return c, errors.New("-attempts must be at least 1")
	}
	if c.model != "" && c.llm == "offline" {
		return c, errors.New("-model names the model of -llm ollama or openai; the offline catalogue has none")
	}
	return c, nil
}

// comparison is the task sequence solved without memory and with D-MEM.
type comparison struct {
	without, with []outcome
}

// total returns the patches tested over a run.
func total(outs []outcome) (attempts int, d time.Duration) {
	for _, o := range outs {
		attempts += o.attempts
		d += o.elapsed
	}
	return attempts, d
}

// run parses args, solves the bundled tasks twice and prints the
// comparison; the usage and flag errors go to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	// The tasks are judged by go test: without it every task would look
	// unfixed.
	if _, err := exec.LookPath("go"); err != nil {
		return fmt.Errorf("the go command is needed to test the patches: %w", err)
	}
	p, about, err := newProposer(c)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "codeagent: patches proposed by %s\n", about)
	cmp, err := compare(ctx, c, p)
	if err != nil {
		return err
	}
	table := func(title string, outs []outcome) {
		fmt.Fprintf(stdout, "\n%s\n  %-12s %8s  %-24s %8s\n", title, "task", "attempts", "result", "time")
		for _, o := range outs {
			result := "not fixed"
			if o.fixedBy != "" {
				result = "fixed by " + o.fixedBy
			}
			fmt.Fprintf(stdout, "  %-12s %8d  %-24s %7.2fs\n", o.task, o.attempts, result, o.elapsed.Seconds())
		}
	}
	table("Without memory:", cmp.without)
	table("With D-MEM:", cmp.with)
	na, nd := total(cmp.without)
	wa, wd := total(cmp.with)
	fmt.Fprintf(stdout, "\nTotal: %d attempts in %.1fs without memory, %d attempts in %.1fs with D-MEM.\n",
		na, nd.Seconds(), wa, wd.Seconds())
	return nil
}

// compare solves the bundled sequence with no memory, then with D-MEM.
func compare(ctx context.Context, c config, p proposer) (comparison, error) {
	var cmp comparison
	tasks, err := loadTasks()
	if err != nil {
		return cmp, err
	}
	work, err := os.MkdirTemp("", "codeagent-")
	if err != nil {
		return cmp, err
	}
	defer os.RemoveAll(work)

	// The memory opens first, so that a -path it cannot use fails before
	// the run without memory, not after it.
	var opts []dmem.Option
	if c.path != "" {
		opts = append(opts, dmem.WithPath(c.path))
	}
	mem, err := dmem.New(ctx, opts...)
	if err != nil {
		return cmp, err
	}
	defer mem.Close()

	a := &agent{propose: p, work: work, maxAttempts: c.maxAttempts}
	if cmp.without, err = solveAll(ctx, a, tasks); err != nil {
		return cmp, err
	}
	rw, err := callbacks.New(mem)
	if err != nil {
		return cmp, err
	}
	a.mem, a.rw = mem, rw
	cmp.with, err = solveAll(ctx, a, tasks)
	if cerr := rw.Close(ctx); err == nil {
		err = cerr
	}
	// Had memory missed experiences, the comparison would not measure what
	// it claims.
	if st := rw.Stats(); err == nil && st.Delivered != st.Queued {
		err = fmt.Errorf("memory missed experiences: %+v", st)
	}
	return cmp, err
}

func solveAll(ctx context.Context, a *agent, tasks []task) ([]outcome, error) {
	var outs []outcome
	for _, t := range tasks {
		o, err := a.solve(ctx, t)
		if err != nil {
			return outs, err
		}
		outs = append(outs, o)
	}
	return outs, nil
}
