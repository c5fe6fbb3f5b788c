package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms"
)

func TestFirstError(t *testing.T) {
	tests := []struct{ name, out, want string }{
		{"panic", "--- FAIL: TestSum (0.00s)\npanic: runtime error: index out of range [3] with length 3 [recovered, repanicked]\n\ngoroutine 6 [running]:\n",
			"runtime error: index out of range [3] with length 3"},
		{"vet", "# example.com/greet\n# [example.com/greet]\n./greet.go:8:29: fmt.Sprintf format %d has arg name of wrong type string\nFAIL\texample.com/greet [build failed]\n",
			"fmt.Sprintf format %d has arg name of wrong type string"},
		{"test", "--- FAIL: TestLabel (0.00s)\n    label_test.go:7: Label = \"tea\", want \"tea: 12\"\nFAIL\n",
			`Label = "tea", want "tea: 12"`},
		{"other", "# example.com/x\nsomething odd\n", "something odd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := firstError(tt.out); got != tt.want {
				t.Errorf("firstError = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCatalogue pins which fixes apply to which bundled task, and so what the
// memoryless run tries: every applicable fix that sorts before the right one.
func TestCatalogue(t *testing.T) {
	tasks, err := loadTasks()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"sum":        {"loop-bound", "loop-from-one"},
		"greet":      {"verb-s", "verb-v"},
		"pairs":      {"loop-from-one", "loop-lookahead"},
		"wordcount":  {"make-map"},
		"label":      {"verb-s", "verb-v"},
		"increasing": {"loop-from-one", "loop-lookahead"},
	}
	if len(tasks) != len(want) {
		t.Fatalf("%d tasks, want %d", len(tasks), len(want))
	}
	for _, task := range tasks {
		var applies []string
		for _, f := range catalogue {
			if len(f.apply(task)) > 0 {
				applies = append(applies, f.name)
			}
		}
		if !slices.Equal(applies, want[task.name]) {
			t.Errorf("%s: fixes %v apply, want %v", task.name, applies, want[task.name])
		}
	}
	if !slices.IsSortedFunc(catalogue, func(a, b fix) int { return strings.Compare(a.name, b.name) }) {
		t.Error("catalogue not in name order")
	}
}

func TestOrder(t *testing.T) {
	var names []string
	for _, f := range catalogue {
		names = append(names, f.name)
	}
	if got := order(nil); !slices.Equal(got, names) {
		t.Errorf("order(nil) = %v, want the catalogue %v", got, names)
	}
	got := order([]recollection{
		{fix: "verb-v", worked: true},
		{fix: "loop-from-one", worked: false},
		{fix: "loop-lookahead", worked: true},
		{fix: "llm-3", worked: true},   // not in the catalogue
		{fix: "verb-v", worked: false}, // the better match said it worked
	})
	want := []string{"verb-v", "loop-lookahead", "check-error", "loop-bound", "make-map", "verb-s", "loop-from-one"}
	if !slices.Equal(got, want) {
		t.Errorf("order = %v, want %v", got, want)
	}
}

func TestExperienceParses(t *testing.T) {
	for _, tt := range []struct {
		step, fix, err string
		worked         bool
	}{
		{"go_test(fix loop-bound for error: runtime error: index out of range [3] with length 3) → ok",
			"loop-bound", "runtime error: index out of range [3] with length 3", true},
		{"go_test(fix verb-s for error: fmt.Sprintf format %d has arg name of wrong type string) failed: FAIL: fmt.Sprintf format %s has arg unread of wrong type int",
			"verb-s", "fmt.Sprintf format %d has arg name of wrong type string", false},
		{`go_test(fix llm-2 (sum.go: "i <= len(xs)" → "i < len(xs)") for error: boom) → ok`,
			"llm-2", "boom", true},
	} {
		m := experience.FindStringSubmatch(tt.step)
		if m == nil || m[1] != tt.fix || m[2] != tt.err || (m[3] == "→ ok") != tt.worked {
			t.Errorf("%q parsed as %q", tt.step, m)
		}
	}
}

// scripted is a model that always gives the same reply and records prompts.
type scripted struct {
	reply   string
	prompts []string
}

func (s *scripted) GenerateContent(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	for _, m := range msgs {
		for _, p := range m.Parts {
			if t, ok := p.(llms.TextContent); ok {
				s.prompts = append(s.prompts, t.Text)
			}
		}
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: s.reply}}}, nil
}

func (s *scripted) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, s, prompt, opts...)
}

func TestModelProposer(t *testing.T) {
	tasks, err := loadTasks()
	if err != nil {
		t.Fatal(err)
	}
	sum := tasks[0]
	m := &scripted{reply: "Sure.\nFILE: sum.go\nOLD:\n\tfor i := 0; i <= len(xs); i++ {\nNEW:\n\tfor i := 0; i < len(xs); i++ {\nEND\n"}
	p := &modelProposer{model: m}
	pt, err := p.propose(context.Background(), problem{
		task: sum, err: "runtime error: index out of range [3] with length 3", tried: []string{"llm-0"},
		recalled: []recollection{{text: "go_test(fix loop-bound for error: index out of range) → ok"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if pt.name != "llm-1" || !strings.Contains(pt.files["sum.go"], "i < len(xs)") {
		t.Errorf("patch %s: %v", pt.name, pt.files)
	}
	prompt := strings.Join(m.prompts, "\n")
	for _, w := range []string{"--- sum.go", "index out of range", "fix loop-bound", "Already tried here, and failed: llm-0"} {
		if !strings.Contains(prompt, w) {
			t.Errorf("prompt lacks %q:\n%s", w, prompt)
		}
	}

	for _, reply := range []string{"no idea", "FILE: sum.go\nOLD:\nnot in the file\nNEW:\nx\nEND", "FILE: sum_test.go\nOLD:\npackage sum\nNEW:\npackage sum\nEND"} {
		m.reply = reply
		pt, err := p.propose(context.Background(), problem{task: sum, err: "e"})
		if err != nil || len(pt.files) != 0 || pt.about != "unusable reply" {
			t.Errorf("reply %q: patch %+v, %v; want an empty, unusable patch", reply, pt, err)
		}
	}
}

// TestMemorySavesAttempts is the code agent's acceptance test: on the bundled
// sequence, the offline proposer with D-MEM tests fewer patches than without
// memory, all tasks are fixed both ways, and the saving is on the later tasks
// of a family already met (label after greet, increasing after pairs).
func TestMemorySavesAttempts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test about 30 times")
	}
	cmp, err := compare(context.Background(), config{maxAttempts: 8}, catalogueProposer{})
	if err != nil {
		t.Fatal(err)
	}
	by := func(outs []outcome) map[string]int {
		m := map[string]int{}
		for _, o := range outs {
			if o.fixedBy == "" {
				t.Errorf("%s not fixed", o.task)
			}
			m[o.task] = o.attempts
		}
		return m
	}
	without, with := by(cmp.without), by(cmp.with)
	na, _ := total(cmp.without)
	wa, _ := total(cmp.with)
	t.Logf("attempts without memory %v (total %d), with D-MEM %v (total %d)", without, na, with, wa)
	if wa >= na {
		t.Errorf("with D-MEM %d attempts, without %d: want fewer with memory", wa, na)
	}
	for _, later := range []string{"label", "increasing"} {
		if with[later] >= without[later] {
			t.Errorf("%s: %d attempts with D-MEM, %d without: want fewer", later, with[later], without[later])
		}
	}
	for _, first := range []string{"sum", "greet", "pairs", "wordcount"} {
		if with[first] > without[first] {
			t.Errorf("%s: memory made it worse: %d attempts with D-MEM, %d without", first, with[first], without[first])
		}
	}
}

// TestHelpExitsZero: -h prints the usage, on stderr, and is no failure.
func TestHelpExitsZero(t *testing.T) {
	var out, errOut strings.Builder
	err := run(context.Background(), []string{"-h"}, &out, &errOut)
	if exitCode(err) != 0 || !strings.Contains(errOut.String(), "-attempts") || out.Len() > 0 {
		t.Fatalf("-h: exit %d, stdout %q, stderr %q", exitCode(err), out.String(), errOut.String())
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-llm", "gpt"}, {"-attempts", "0"}, {"extra"}, {"-model", "llama3.1"}, {"-path", "codeagent_test.go"}} {
		var out strings.Builder
		if err := run(context.Background(), args, &out, &out); err == nil {
			t.Errorf("run %v: no error", args)
		}
	}
}
