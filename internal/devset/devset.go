package devset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/schema"
)

// Question is a question of categories 1 to 4 (single-hop, multi-hop,
// temporal, open-domain) and the lines that hold its evidence.
type Question struct {
	Text     string
	Evidence []string
}

// ErrNoFile reports that no LoCoMo file was named or found.
var ErrNoFile = errors.New("devset: no LoCoMo file")

// Path returns the LoCoMo file ENGRAM_LOCOMO names, or else the
// development set beside the repository, up levels directories above the
// caller's package (../shared/data/locomo-dev.json from the repository's
// root).
func Path(up int) string {
	if p := os.Getenv("ENGRAM_LOCOMO"); p != "" {
		return p
	}
	parts := []string{}
	for range up + 1 {
		parts = append(parts, "..")
	}
	return filepath.Join(append(parts, "shared", "data", "locomo-dev.json")...)
}

// Read returns the turns of the conversations in the LoCoMo file at path,
// each as the line a memory is given ("Speaker: text"), in order, and
// their questions of categories 1 to 4 whose evidence is among the turns.
// A missing file gives an error wrapping ErrNoFile.
func Read(path string) ([]string, []Question, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrNoFile, err)
	}
	var samples []struct {
		QA []struct {
			Question string   `json:"question"`
			Evidence []string `json:"evidence"`
			Category int      `json:"category"`
		} `json:"qa"`
		Conversation map[string]json.RawMessage `json:"conversation"`
	}
	if err := json.Unmarshal(raw, &samples); err != nil {
		return nil, nil, fmt.Errorf("devset: %s: %w", path, err)
	}
	var turns []string
	var qs []Question
	for si, s := range samples {
		lineOf := make(map[string]string) // dia id → the line
		for n := 1; ; n++ {
			session, ok := s.Conversation[fmt.Sprintf("session_%d", n)]
			if !ok {
				break
			}
			var ts []struct {
				Speaker string `json:"speaker"`
				DiaID   string `json:"dia_id"`
				Text    string `json:"text"`
			}
			if err := json.Unmarshal(session, &ts); err != nil {
				return nil, nil, fmt.Errorf("devset: %s: conversation %d, session %d: %w", path, si, n, err)
			}
			for _, t := range ts {
				line := t.Speaker + ": " + t.Text
				lineOf[t.DiaID] = line
				turns = append(turns, line)
			}
		}
		for _, qa := range s.QA {
			if qa.Category < 1 || qa.Category > 4 {
				continue
			}
			q := Question{Text: qa.Question}
			for _, ev := range qa.Evidence {
				if l, ok := lineOf[ev]; ok {
					q.Evidence = append(q.Evidence, l)
				}
			}
			if len(q.Evidence) > 0 {
				qs = append(qs, q)
			}
		}
	}
	return turns, qs, nil
}

// Grow returns the first n of turns, or, past them, turns followed by
// lines that join the first half of one of them to the second half of
// another, each ending in its place in the whole: lines alike to real
// ones but none the same, as a memory that runs for months holds. The
// pair of halves moves on with every pass over turns, so that no two
// grown lines differ only by their number, which word vectors do not see.
func Grow(turns []string, n int) []string {
	if n <= len(turns) {
		return turns[:max(n, 0)]
	}
	out := append(make([]string, 0, n), turns...)
	real := len(turns)
	if real == 0 {
		return out
	}
	for i := real; len(out) < n; i++ {
		pass := i / real
		a := strings.Fields(turns[(i*7919)%real])
		b := strings.Fields(turns[(i*104729+13+pass*7)%real])
		out = append(out, strings.Join(a[:(len(a)+1)/2], " ")+" "+strings.Join(b[len(b)/2:], " ")+fmt.Sprintf(" (%d)", i))
	}
	return out
}

// Recall returns the share of each question's evidence lines that m's
// load of the question returns, averaged over the questions: the
// evaluation's evidence recall. m's memory key holds the history as a
// string.
func Recall(ctx context.Context, m schema.Memory, qs []Question) (float64, error) {
	if len(qs) == 0 {
		return 0, errors.New("devset: no questions")
	}
	sum := 0.0
	for _, q := range qs {
		v, err := m.LoadMemoryVariables(ctx, map[string]any{"input": q.Text})
		if err != nil {
			return 0, err
		}
		h, _ := v[m.GetMemoryKey(ctx)].(string)
		got := 0
		for _, w := range q.Evidence {
			if strings.Contains(h, w) {
				got++
			}
		}
		sum += float64(got) / float64(len(q.Evidence))
	}
	return sum / float64(len(qs)), nil
}

// ForTest returns Read's turns and questions for a test that replays the
// development set: with ENGRAM_EVAL=1 and ENGRAM_LOCOMO naming the file; it
// skips the test without them or without the file, and fails it on a file
// it cannot read or one with fewer than 100 questions.
func ForTest(tb testing.TB) ([]string, []Question) {
	tb.Helper()
	path := os.Getenv("ENGRAM_LOCOMO")
	if os.Getenv("ENGRAM_EVAL") == "" || path == "" {
		tb.Skip("set ENGRAM_EVAL=1 and ENGRAM_LOCOMO to the development set")
	}
	turns, qs, err := Read(path)
	if errors.Is(err, ErrNoFile) {
		tb.Skipf("no development set: %v", err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	if len(qs) < 100 {
		tb.Fatalf("%d questions read from %s", len(qs), path)
	}
	return turns, qs
}
