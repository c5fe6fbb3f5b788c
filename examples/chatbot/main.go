package main

import (
	"context"
	"fmt"
	"os"
)

func main() {
	// Interrupting stops the program at once: D-MEM commits each write
	// before acknowledging it, and feedback is flushed as it is given.
	if err := run(context.Background(), os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "chatbot:", err)
		os.Exit(1)
	}
}
