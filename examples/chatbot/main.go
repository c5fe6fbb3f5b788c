package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
)

func main() {
	// Interrupting stops the program at once: D-MEM commits each write
	// before acknowledging it, and feedback is flushed as it is given.
	err := run(context.Background(), os.Args[1:], os.Stdin, os.Stdout)
	if code := exitCode(err); code != 0 {
		fmt.Fprintln(os.Stderr, "chatbot:", err)
		os.Exit(code)
	}
}

// exitCode is 0 for success and for -h, which asked for the usage and got
// it, and 1 for any other error.
func exitCode(err error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 1
}
