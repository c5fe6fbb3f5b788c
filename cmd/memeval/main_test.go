package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/engram-go/engram/cmd/memeval/dataset"
	"github.com/engram-go/engram/cmd/memeval/eval"
)

func TestGenThenRun(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "set.json")
	var out bytes.Buffer
	if err := run([]string{"gen", "-samples", "1", "-sessions", "3", "-o", data}, &out, &out); err != nil {
		t.Fatal(err)
	}
	ss, err := dataset.ReadFile(data)
	if err != nil || len(ss) != 1 || len(ss[0].QA) == 0 {
		t.Fatalf("generated %d samples: %v", len(ss), err)
	}

	chart := filepath.Join(dir, "chart.png")
	out.Reset()
	err = run([]string{"-data", data, "-memories", "rd,bm25", "-budgets", "128,256", "-json", "-chart", chart}, &out, &out)
	if err != nil {
		t.Fatal(err)
	}
	var rs []eval.Result
	if err := json.Unmarshal(out.Bytes(), &rs); err != nil || len(rs) != 4 {
		t.Fatalf("JSON results: %v\n%s", err, out.String())
	}
	png, err := os.ReadFile(chart)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("chart: %v", err)
	}
}

// -first cuts -data to its first conversations: a run over the first of
// three generated ones prints that it replayed one, and -first without
// -data or below 0 is refused.
func TestFirst(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "set.json")
	var out bytes.Buffer
	if err := run([]string{"gen", "-samples", "3", "-sessions", "2", "-o", data}, &out, &out); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run([]string{"-data", data, "-first", "1", "-memories", "bm25", "-budgets", "256"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "1 conversation,") {
		t.Errorf("-first 1 of 3:\n%s", out.String())
	}
	for _, args := range [][]string{{"-first", "2"}, {"-data", data, "-first", "-1"}} {
		if err := run(args, &out, &out); err == nil || !strings.Contains(err.Error(), "-first") {
			t.Errorf("%v: %v, want an error naming -first", args, err)
		}
	}
}

func TestTable(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-samples", "1", "-memories", "bm25", "-budgets", "256", "-chart", ""}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "bm25") || !strings.Contains(out.String(), "recall") {
		t.Fatalf("table:\n%s", out.String())
	}
}

func TestBadFlags(t *testing.T) {
	var out bytes.Buffer
	for _, args := range [][]string{{"-budgets", "0"}, {"-memories", "nope"}, {"-data", "/nonexistent.json"}, {"gen", "-noise", "2"}} {
		if err := run(args, &out, &out); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// Odd input gets an error that says what to fix, not a panic or a silent
// default: no conversations, stray words, generator flags with -data, a
// chart that cannot be written (before any replay).
func TestOddInput(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, []byte("[]"), 0o600); err != nil {
		t.Fatal(err)
	}
	for args, want := range map[string]string{
		"-data " + empty:                           "no conversations",
		"-samples 1 stray":                         "unexpected argument",
		"gen stray":                                "unexpected argument",
		"-data " + empty + " -seed 3":              "-seed apply to the generated set",
		"-samples 1 -chart " + dir + "/no/dir.png": "does not exist",
		"-samples 1 -chart " + dir:                 "is a directory",
		"-samples 1 -factmiss 3":                   "there is no -updates",
		"-samples 1 -feedback none -dated":         "-dated gives the save-then-ask replay",
	} {
		var out bytes.Buffer
		err := run(strings.Fields(args), &out, &out)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want it to say %q", args, err, want)
		}
	}
}

// A run that scores no question (each adversarial, or its evidence naming
// no turn) is an error, not a table of zeros, and it leaves an earlier
// chart as it was: the file is replaced only by a whole new chart.
func TestNothingScored(t *testing.T) {
	dir := t.TempDir()
	data, chart := filepath.Join(dir, "unscored.json"), filepath.Join(dir, "c.png")
	const set = `[{"sample_id": "c", "conversation": {"speaker_a": "A", "speaker_b": "B",
		"session_1_date_time": "1:56 pm on 8 May, 2023",
		"session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "Hi."}, {"speaker": "B", "dia_id": "D1:2", "text": "Hello."}]},
		"qa": [{"question": "Who waved?", "answer": "A", "evidence": ["D9:9"], "category": 4}]}]`
	for name, body := range map[string]string{data: set, chart: "an earlier chart"} {
		if err := os.WriteFile(name, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"-data", data, "-memories", "bm25", "-budgets", "64", "-chart", chart},
		{"-data", data, "-memories", "bm25", "-budgets", "64", "-feedback", "none"},
	} {
		var out bytes.Buffer
		if err := run(args, &out, &out); err == nil || !strings.Contains(err.Error(), "could be scored") {
			t.Errorf("%v: err = %v, want one saying no question could be scored", args, err)
		}
	}
	if got, err := os.ReadFile(chart); err != nil || string(got) != "an earlier chart" {
		t.Fatalf("the earlier chart holds %q (%v)", got, err)
	}
}

// One budget still draws: a log axis over a single point.
func TestChartOneBudget(t *testing.T) {
	chart := filepath.Join(t.TempDir(), "c.png")
	var out bytes.Buffer
	if err := run([]string{"-samples", "1", "-memories", "oracle", "-budgets", "1", "-chart", chart}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if png, err := os.ReadFile(chart); err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("chart: %v", err)
	}
}

// Evidence ids that name no turn are not held against a memory; a category
// with no question shows "-", not 0.
func TestDanglingEvidence(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-data", "dataset/testdata/quirks.json", "-memories", "oracle", "-budgets", "512"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(strings.Split(strings.TrimSpace(out.String()), "\n")[2])
	if fields[0] != "oracle" || fields[2] != "1.000" || fields[6] != "-" {
		t.Fatalf("oracle row %q: want recall 1.000 and no open-domain question", fields)
	}
}

// -long joins the conversations; -updates replays the update set, with
// its own table and JSON.
func TestLongAndUpdates(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-long", "-samples", "2", "-memories", "bm25", "-budgets", "256"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "2 conversations joined into one") {
		t.Fatalf("long table:\n%s", out.String())
	}
	out.Reset()
	if err := run([]string{"-updates", "-samples", "1", "-memories", "bm25", "-budgets", "256,512", "-json"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	var rs []eval.UpdateResult
	if err := json.Unmarshal(out.Bytes(), &rs); err != nil || len(rs) != 2 || rs[0].SingleHopN == 0 {
		t.Fatalf("update results: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := run([]string{"-updates", "-samples", "1", "-data", "dataset/testdata/quirks.json", "-memories", "bm25", "-budgets", "256"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "stale undated") {
		t.Fatalf("update table:\n%s", out.String())
	}
	// The answer-key memories read every statement, or miss some.
	var all, missing []eval.UpdateResult
	for _, miss := range []string{"0", "2"} {
		out.Reset()
		if err := run([]string{"-updates", "-samples", "1", "-memories", "rd-facts", "-budgets", "256", "-factmiss", miss, "-json"}, &out, &out); err != nil {
			t.Fatal(err)
		}
		rs := &all
		if miss != "0" {
			rs = &missing
		}
		if err := json.Unmarshal(out.Bytes(), rs); err != nil || len(*rs) != 1 {
			t.Fatalf("-factmiss %s: %v\n%s", miss, err, out.String())
		}
	}
	if all[0].SingleHop <= missing[0].SingleHop {
		t.Errorf("rd-facts reading every statement %.3f, missing half %.3f", all[0].SingleHop, missing[0].SingleHop)
	}
	for _, args := range [][]string{{"-long", "-updates"}, {"-updates", "-chart", "x.png"}, {"-updates", "-factmiss", "-1"}} {
		if err := run(args, &out, &out); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// TestHelpExitsZero runs the command itself, as a user would: -h (for the
// evaluation and for gen) prints the usage and exits 0; a bad flag exits 1.
func TestHelpExitsZero(t *testing.T) {
	if args, ok := os.LookupEnv("MEMEVAL_MAIN_ARGS"); ok {
		os.Args = append([]string{"memeval"}, strings.Fields(args)...)
		main()
		os.Exit(0)
	}
	for _, tt := range []struct {
		args  string
		code  int
		usage string
	}{
		{"-h", 0, "-budgets"},
		{"-help", 0, "-budgets"},
		{"gen -h", 0, "-samples"},
		{"-nope", 1, "-budgets"},
	} {
		t.Run(tt.args, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelpExitsZero$")
			cmd.Env = append(os.Environ(), "MEMEVAL_MAIN_ARGS="+tt.args)
			out, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.code || !strings.Contains(string(out), tt.usage) {
				t.Errorf("memeval %s: exit %d, want %d; output:\n%s", tt.args, code, tt.code, out)
			}
			if tt.code == 0 && strings.Contains(string(out), "help requested") {
				t.Errorf("memeval %s reports asking for help as an error:\n%s", tt.args, out)
			}
		})
	}
}
