package callbacks

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/engram-go/engram"
)

// errNotFinished is the output langchaingo's executor finishes with when
// the agent ran out of iterations (agents.ErrNotFinished's text), written
// here so that the handler does not build the agents package, and with it
// the prompt templates' engine, into every program that rates answers.
const errNotFinished = "agent not finished before max iterations"

// describe renders what an event says as a step's text.
func describe(ev event) string {
	switch ev.step.Kind {
	case engram.StepToolResult:
		return ev.subject + " → " + ev.output
	case engram.StepToolError:
		return ev.subject + " failed: " + errText(ev.err)
	case engram.StepChainError:
		if ev.subject == "" {
			return "task failed: " + errText(ev.err)
		}
		return `task "` + ev.subject + `" failed: ` + errText(ev.err)
	}
	return ev.output
}

func errText(err error) string {
	if err == nil {
		return "unknown error"
	}
	return err.Error()
}

// inputText picks a chain's input: the "input" value, else the only string.
func inputText(inputs map[string]any) string {
	if s, ok := inputs["input"].(string); ok {
		return s
	}
	var only []string
	for _, v := range inputs {
		if s, ok := v.(string); ok {
			only = append(only, s)
		}
	}
	if len(only) != 1 {
		return ""
	}
	return only[0]
}

// truncate cuts s to at most n bytes at a rune boundary, ending in "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ell = "…"
	cut := max(n-len(ell), 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if n < len(ell) {
		return s[:cut]
	}
	return s[:cut] + ell
}

// panicError is a recovered panic of the sink or the reward function.
type panicError struct {
	where string
	value any
}

func (p panicError) Error() string {
	return fmt.Sprintf("callbacks: %s panicked: %v", p.where, p.value)
}

func recoverInto(err *error, where string) {
	if v := recover(); v != nil {
		*err = panicError{where: where, value: v}
	}
}

func asPanic(err error, p *panicError) bool { return errors.As(err, p) }
