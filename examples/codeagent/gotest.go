package main

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"

	"github.com/tmc/langchaingo/tools"
)

var _ tools.Tool = goTest{}

// goTest is the agent's one tool: it runs go test in a task's directory.
// Its input only labels the call (which fix is being tested, for what), so
// that the step memory records reads as an experience.
type goTest struct{ dir string }

// Name returns the tool's name, which begins each step memory records.
func (goTest) Name() string { return "go_test" }

// Description tells a model what the tool does.
func (goTest) Description() string {
	return "Runs go test in the task's module; returns ok, or fails with the first error."
}

// Call returns "ok" when the tests pass, and otherwise an error holding the
// first error of the output, which is all a memory needs to recognise it.
func (g goTest) Call(ctx context.Context, _ string) (string, error) {
	out, err := runGoTest(ctx, g.dir)
	if err == nil {
		return "ok", nil
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	return "", errors.New("FAIL: " + firstError(out))
}

// runGoTest runs go test in dir, offline and outside any workspace.
func runGoTest(ctx context.Context, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOPROXY=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

var (
	compileError = regexp.MustCompile(`^\S+\.go:\d+:\d+: (.+)$`)
	testError    = regexp.MustCompile(`^\s+\S+_test\.go:\d+: (.+)$`)
	recovered    = regexp.MustCompile(` \[recovered.*\]$`)
)

// firstError picks the line of go test's output that says what went wrong:
// a panic, a compiler or vet error, or a test's complaint, without the file
// positions that would make the same error look different in another module.
func firstError(out string) string {
	var first string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if msg, ok := strings.CutPrefix(line, "panic: "); ok {
			return recovered.ReplaceAllString(msg, "")
		}
		if m := compileError.FindStringSubmatch(line); m != nil {
			return m[1]
		}
		if m := testError.FindStringSubmatch(line); m != nil {
			return m[1]
		}
		if first == "" && strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "#") {
			first = strings.TrimSpace(line)
		}
	}
	return first
}
