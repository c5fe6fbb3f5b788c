package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/engram-go/engram/internal/dataset"
	"github.com/engram-go/engram/internal/eval"
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
