package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var memories = []string{"dmem", "rd", "window", "token"}

// TestBeforeAnyAnswer: :why, :good and :stats before anything was said
// answer alike on every memory.
func TestBeforeAnyAnswer(t *testing.T) {
	for _, m := range memories {
		t.Run(m, func(t *testing.T) {
			out := chat(t, ":why\n:good\n:bad\n:stats\n", "-memory", m)
			as := answers(out)
			if got := as[":why"]; got != nothingAsked {
				t.Errorf(":why answered %q, want %q", got, nothingAsked)
			}
			want := nothingToRate
			if m == "window" || m == "token" {
				want = "This memory does not learn from feedback; try -memory dmem or rd."
			}
			for _, c := range []string{":good", ":bad"} {
				if got := as[c]; got != want {
					t.Errorf("%s answered %q, want %q", c, got, want)
				}
			}
			rewards := "rewards: 0 sent with :good and :bad; the rewarder delivered 0 events, 0 failed, 0 dropped"
			if m == "window" || m == "token" {
				rewards = "rewards: none (this memory does not learn from feedback)"
			}
			if !strings.Contains(out, rewards) {
				t.Errorf("output lacks %q:\n%s", rewards, out)
			}
		})
	}
}

// TestWhyBeforeAQuestion: after statements only, :why says so alike on
// every memory (neither explains an empty load nor prints a query line);
// after a question it explains.
func TestWhyBeforeAQuestion(t *testing.T) {
	for _, m := range memories {
		t.Run(m, func(t *testing.T) {
			out := chat(t, "The wifi password is kiwi-7731.\nWhat a long week it has been.\n:why\n", "-memory", m)
			if got := answers(out)[":why"]; got != nothingAsked {
				t.Errorf(":why after statements answered %q, want %q", got, nothingAsked)
			}
			out = chat(t, "The wifi password is kiwi-7731.\nWhat is the wifi password?\n:why\n", "-memory", m)
			if got := answers(out)[":why"]; got == nothingAsked {
				t.Errorf(":why after a question answered %q", got)
			}
		})
	}
}

// TestRewardsCounted: :stats counts the rewards sent once, in one line, the
// same on both memories that take them.
func TestRewardsCounted(t *testing.T) {
	in := "The wifi password is kiwi-7731.\nWhat is the wifi password?\n:good\n:stats\n:bad thanks\n:stats\n"
	for _, m := range []string{"dmem", "rd"} {
		t.Run(m, func(t *testing.T) {
			out := chat(t, in, "-memory", m)
			for _, w := range []string{
				"rewards: 1 sent with :good and :bad; the rewarder delivered 1 events, 0 failed, 0 dropped",
				"rewards: 2 sent with :good and :bad; the rewarder delivered 2 events, 0 failed, 0 dropped",
			} {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			// Two "Sent a reward" and, in each :stats, "rewards" and
			// "rewarder": no other count of rewards.
			if n := strings.Count(out, "reward"); n != 6 {
				t.Errorf("%d mentions of rewards, want 6:\n%s", n, out)
			}
		})
	}
}

// TestWhyCapped: both engram memories' :why lists at most maxDropped of the
// units a load did not return, and counts the rest.
func TestWhyCapped(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("testdata", "paraphrase.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ memory, from, item string }{
		{"dmem", "", "\n  dropped "},
		{"rd", "", "\n  dropped "},
	} {
		t.Run(tt.memory, func(t *testing.T) {
			out := chat(t, string(script)+":why\n", "-memory", tt.memory)
			why := out[strings.LastIndex(out, "> :why"):]
			_, list, _ := strings.Cut(why, tt.from)
			list, more, capped := strings.Cut(list, "… and ")
			if n := strings.Count(list, tt.item); !capped || n != maxDropped {
				t.Errorf("lists %d dropped units (capped: %v), want %d and how many more:\n%s", n, capped, maxDropped, why)
			}
			if !strings.Contains(more, "more") {
				t.Errorf("does not say how many more were dropped:\n%s", why)
			}
		})
	}
}

// TestReopenNumbering: after reopening a -path memory, :why numbers the new
// units and steps on from the old ones.
func TestReopenNumbering(t *testing.T) {
	dir := t.TempDir()
	chat(t, "My sister Alice lives in Lisbon.\nI had pasta for lunch today.\n", "-path", dir)
	out := chat(t, "The wifi password is kiwi-7731.\nWhat is the wifi password?\n:why\n", "-path", dir)
	most := 0
	for _, m := range regexp.MustCompile(`\bu(\d+) |step (\d+):`).FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1] + m[2])
		most = max(most, n)
	}
	// Two runs of two exchanges: eight steps, numbered from 0 or 1.
	if most > 8 {
		t.Errorf("numbers reach %d after 8 steps: the reopened memory skipped numbers\n%s", most, out)
	}
}

func TestHelpExitsZero(t *testing.T) {
	var out strings.Builder
	err := run(context.Background(), []string{"-h"}, strings.NewReader(""), &out)
	if !errors.Is(err, flag.ErrHelp) || exitCode(err) != 0 {
		t.Errorf("-h: err %v, exit code %d, want flag.ErrHelp and 0", err, exitCode(err))
	}
	if !strings.Contains(out.String(), "-budget") {
		t.Errorf("-h printed no usage:\n%s", out.String())
	}
	if exitCode(nil) != 0 || exitCode(errors.New("x")) != 1 {
		t.Error("exitCode: want 0 for nil, 1 for an error")
	}
}

func TestStatementIsNoted(t *testing.T) {
	for _, m := range memories {
		out := chat(t, "The wifi password is kiwi-7731.\nWhat a long week it has been.\n", "-memory", m)
		if got := answers(out)["What a long week it has been."]; got != noted {
			t.Errorf("-memory %s: answered %q, want %q", m, got, noted)
		}
	}
}

// TestDefaultBudgetChooses: at the default budget the bundled script of 20
// lines already outgrows the budget, so :why shows units left out; and the
// banner says so.
func TestDefaultBudgetChooses(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("testdata", "facts.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ memory, dropped string }{
		{"dmem", "  dropped "},
		{"rd", "  dropped "},
		{"window", "  - Human: "},
		{"token", "  - Human: "},
	} {
		t.Run(tt.memory, func(t *testing.T) {
			out := chat(t, string(script)+":why\n", "-memory", tt.memory)
			if !strings.Contains(out, ":why shows what it kept and dropped") {
				t.Errorf("the banner does not point at :why:\n%s", out)
			}
			why := out[strings.LastIndex(out, "> :why"):]
			if !strings.Contains(why, tt.dropped) {
				t.Errorf("at the default budget %d nothing was left out:\n%s", defaultBudget, why)
			}
		})
	}
}
