package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// config is what the flags choose.
type config struct {
	memory string // dmem, rd, window or token
	budget int    // tokens a load may return
	path   string // where dmem keeps its record (a directory) or rd its buffer (a file); "" for none
	llm    string // local, ollama or openai
	model  string // the model name for ollama or openai
	script string // a file of lines to replay; "" to read stdin
	facts  bool   // the model reads each message's facts (WithFacts)
}

// defaultBudget is about eight exchanges of short lines, so that from the
// ninth or so the memory must choose what the prompt sees and :why shows
// a choice; at 300 a chat of 25 lines fitted whole.
const defaultBudget = 120

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("chatbot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.memory, "memory", "dmem", "the memory: dmem (D-MEM), rd (rate-distortion buffer), or langchaingo's window or token buffer")
	fs.IntVar(&c.budget, "budget", defaultBudget, "the most tokens of history the memory returns (window ignores it: it keeps the last 5 exchanges)")
	fs.StringVar(&c.path, "path", "", "where the memory is kept across runs: a directory for -memory dmem, a file for -memory rd (saved when the chat ends)")
	fs.StringVar(&c.llm, "llm", "local", "the model: local (an offline stand-in that quotes memory), ollama or openai")
	fs.StringVar(&c.model, "model", "", "the model name for -llm ollama (default llama3.1) or openai (default: the client's)")
	fs.StringVar(&c.script, "script", "", "a file of lines to replay instead of reading stdin")
	fs.BoolVar(&c.facts, "facts", false, "have the model read the facts each message states, so that a changed fact is answered with its newest value (-memory dmem or rd, and a real -llm: one more call per message)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if c.budget < 1 {
		return c, errors.New("-budget must be positive")
	}
	if c.facts && c.llm == "local" {
		return c, errors.New("-facts needs a model to read the facts: -llm ollama or openai")
	}
	if c.facts && c.memory != "dmem" && c.memory != "rd" {
		return c, fmt.Errorf("-facts works with -memory dmem or rd, not %s", c.memory)
	}
	return c, nil
}
