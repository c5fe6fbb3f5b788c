package main

import (
	"os"
	"strings"
	"testing"
)

// Every Go snippet of the README is in this program, line for line, so
// that it compiles: a snippet edited in one place and not the other fails
// here.
func TestSnippetsCompileHere(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	have := make(map[string]bool)
	for _, l := range strings.Split(string(src), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	blocks := strings.Split(string(readme), "```go\n")
	if len(blocks) < 2 {
		t.Fatal("the README has no Go snippet")
	}
	for i, b := range blocks[1:] {
		code, _, _ := strings.Cut(b, "```")
		for _, l := range strings.Split(code, "\n") {
			l = strings.TrimSpace(l)
			if l == "" || strings.HasPrefix(l, "//") {
				continue
			}
			if !have[l] {
				t.Errorf("snippet %d: %q is not in examples/readme/main.go", i+1, l)
			}
		}
	}
}
