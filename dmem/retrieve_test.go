package dmem

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/tmc/langchaingo/schema"
)

// LastLoad gives the ids behind the lines of the latest load, in order,
// telling identical texts apart; other searches leave it alone.
func TestLastLoad(t *testing.T) {
	m := newMemory(t)
	if ids := m.LastLoad(); ids != nil {
		t.Fatalf("LastLoad before any load: %v", ids)
	}
	save(t, m, "My sister Priya lives in Lisbon.", "Nice!")
	same := schema.Document{PageContent: "The gym locker code of Marcus is 4711."}
	twins, err := m.AddDocuments(bg, []schema.Document{same, same})
	if err != nil {
		t.Fatal(err)
	}
	h := load(t, m, "What is the locker code of Marcus?")
	ids := m.LastLoad()
	lines := strings.Split(h, "\n")
	if len(ids) != len(lines) {
		t.Fatalf("%d ids for %d lines:\n%s", len(ids), len(lines), h)
	}
	for i, id := range ids {
		u, _, err := m.Unit(id)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(lines[i], ": "+u.Text) {
			t.Fatalf("line %d %q is not unit %s %q", i, lines[i], id, u.Text)
		}
		if _, err := m.ExplainUnit(id); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range twins {
		if !slices.Contains(ids, id) {
			t.Fatalf("identical unit %s missing from LastLoad %v", id, ids)
		}
	}
	ids[0] = "changed"
	if m.LastLoad()[0] == "changed" {
		t.Fatal("LastLoad returned the memory's own slice")
	}
	if _, err := m.SimilaritySearch(bg, "Priya", 1); err != nil {
		t.Fatal(err)
	}
	if got := m.LastLoad(); len(got) != len(lines) {
		t.Fatalf("SimilaritySearch changed LastLoad to %v", got)
	}
	if err := m.Clear(bg); err != nil {
		t.Fatal(err)
	}
	if ids := m.LastLoad(); ids != nil {
		t.Fatalf("LastLoad after Clear: %v", ids)
	}
}

// Input maps are read as internal/memvars reads them, under dmem's prefixes.
func TestInputErrorsNamed(t *testing.T) {
	m := newMemory(t)
	err := m.SaveContext(bg, map[string]any{"a": "x", "b": "y"}, map[string]any{"output": "z"})
	if !errors.Is(err, engram.ErrInvalidInput) || !strings.HasPrefix(err.Error(), "dmem: save inputs: ") {
		t.Fatalf("ambiguous inputs: %v", err)
	}
	err = m.SaveContext(bg, map[string]any{"input": "x"}, map[string]any{"output": 3})
	if !errors.Is(err, engram.ErrInvalidInput) || !strings.HasPrefix(err.Error(), "dmem: save outputs: ") {
		t.Fatalf("non-string output: %v", err)
	}
	_, err = m.LoadMemoryVariables(bg, map[string]any{"input": 3})
	if !errors.Is(err, engram.ErrInvalidInput) || !strings.HasPrefix(err.Error(), "dmem: load: ") {
		t.Fatalf("non-string query: %v", err)
	}
}
