package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// facts are what testdata/facts.txt states in its first lines and asks
// about in its last, after twelve lines of small talk.
var facts = []struct{ question, fact string }{
	{"Where does my sister live?", "Lisbon"},
	{"What is the wifi password?", "kiwi-7731"},
	{"When does my flight to Oslo leave?", "March 14"},
	{"When is my dentist appointment?", "Friday"},
}

// chat runs the chatbot on stdin and returns what it printed.
func chat(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	var out strings.Builder
	if err := run(context.Background(), args, strings.NewReader(stdin), &out); err != nil {
		t.Fatalf("run %v: %v\n%s", args, err, out.String())
	}
	return out.String()
}

// answers maps each line the chatbot was given to its reply.
func answers(out string) map[string]string {
	as := map[string]string{}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if q, ok := strings.CutPrefix(l, "> "); ok && i+1 < len(lines) {
			as[q] = lines[i+1]
		}
	}
	return as
}

// TestRecallAtSmallBudget is the chatbot's acceptance test: at a budget of
// 60 tokens, D-MEM and the rate-distortion buffer answer all four questions
// about facts stated twelve exchanges earlier; langchaingo's window and
// token buffers, which keep the most recent turns, answer none.
func TestRecallAtSmallBudget(t *testing.T) {
	const budget = "60"
	script := filepath.Join("testdata", "facts.txt")
	for _, tt := range []struct {
		memory string
		recall bool
	}{
		{"dmem", true},
		{"rd", true},
		{"window", false},
		{"token", false},
	} {
		t.Run(tt.memory, func(t *testing.T) {
			out := chat(t, "", "-memory", tt.memory, "-budget", budget, "-script", script)
			as := answers(out)
			recalled := 0
			for _, f := range facts {
				a, ok := as[f.question]
				if !ok {
					t.Fatalf("no answer to %q in:\n%s", f.question, out)
				}
				if strings.Contains(a, f.fact) {
					recalled++
				} else if a != dontKnow {
					t.Errorf("%q: answered %q, neither the fact nor %q", f.question, a, dontKnow)
				}
				t.Logf("%-36s %s", f.question, a)
			}
			if want := map[bool]int{true: len(facts), false: 0}[tt.recall]; recalled != want {
				t.Errorf("-memory %s -budget %s recalled %d of %d facts, want %d", tt.memory, budget, recalled, len(facts), want)
			}
		})
	}
}

// paraphrased are the questions testdata/paraphrase.txt asks after 120
// lines of small talk, none sharing a content word with its fact, and what
// the right answer holds.
var paraphrased = []struct{ question, fact string }{
	{"Who is my physician?", "Dr Patel"},
	{"What sport does my boy do?", "football"},
	{"What do I drive?", "Toyota Corolla"},
	{"Which instrument am I studying?", "cello"},
	{"Who am I married to?", "Tom"},
}

// TestParaphrasedRecall is the stand-in's test on paraphrases: at
// the default budget both engram memories return each fact among the lines
// they choose, and the stand-in finds it by what the words mean.
func TestParaphrasedRecall(t *testing.T) {
	script := filepath.Join("testdata", "paraphrase.txt")
	for _, memory := range []string{"rd", "dmem"} {
		t.Run(memory, func(t *testing.T) {
			as := answers(chat(t, "", "-memory", memory, "-script", script))
			for _, p := range paraphrased {
				if a := as[p.question]; !strings.Contains(a, p.fact) {
					t.Errorf("%q: answered %q, want %q", p.question, a, p.fact)
				}
			}
		})
	}
}

func TestCommands(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("testdata", "facts.txt"))
	if err != nil {
		t.Fatal(err)
	}
	in := string(script) + ":why\n:good that was right\n:bad\n:stats\n:nope\n:quit\nnot read\n"
	for _, tt := range []struct {
		memory string
		want   []string
	}{
		{"dmem", []string{`query "When is my dentist appointment?"`, "kept", "how the kept units came to be in memory", "Remember that my dentist appointment", "Sent a reward of +1", "Sent a reward of -1", "in core", "rewards: 2 sent with :good and :bad; the rewarder delivered 2 events"}},
		{"rd", []string{`query "When is my dentist appointment?"`, "kept", "dropped", "Sent a reward of +1", "units in the pool", "rewards: 2 sent with :good and :bad; the rewarder delivered 2 events"}},
		{"window", []string{"last 5 exchanges", "- Human: My sister Alice lives in Lisbon.", "does not learn from feedback", "returned 10 of the 40 messages saved"}},
		{"token", []string{"newest messages that fit 60 tokens", "- Human: The wifi password is kiwi-7731.", "does not learn from feedback"}},
	} {
		t.Run(tt.memory, func(t *testing.T) {
			out := chat(t, in, "-memory", tt.memory, "-budget", "60")
			for _, w := range append(tt.want, "Unknown command :nope") {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, "not read") {
				t.Error(":quit did not stop the chat")
			}
		})
	}
}

// TestPathKeepsMemory runs the chatbot twice on one -path: the second run
// recalls what the first was told.
func TestPathKeepsMemory(t *testing.T) {
	dir := t.TempDir()
	chat(t, "My sister Alice lives in Lisbon.\nI had pasta for lunch today.\n", "-path", dir, "-budget", "60")
	out := chat(t, "Where does my sister live?\n", "-path", dir, "-budget", "60")
	if a := answers(out)["Where does my sister live?"]; !strings.Contains(a, "Lisbon") {
		t.Errorf("second run answered %q, want Lisbon recalled", a)
	}
}

func TestDefaultsAreOffline(t *testing.T) {
	out := chat(t, "The wifi password is kiwi-7731.\nWhat is the wifi password?\n")
	for _, w := range []string{"memory dmem", "model local", "offline stand-in", `You told me: "The wifi password is kiwi-7731."`} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-memory", "lru"},
		{"-llm", "gpt"},
		{"-budget", "0"},
		{"-memory", "rd", "-path", t.TempDir()},
		{"-script", filepath.Join(t.TempDir(), "missing.txt")},
		{"extra"},
	} {
		var out strings.Builder
		if err := run(context.Background(), args, strings.NewReader(""), &out); err == nil {
			t.Errorf("run %v: no error", args)
		}
	}
}
