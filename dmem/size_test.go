package dmem

import (
	"errors"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
)

// TestMaxMessageBytes checks that a message over the limit is refused with
// ErrTooLarge wherever it comes in, and that a demotion skips it and
// stores the rest.
func TestMaxMessageBytes(t *testing.T) {
	m := newMemory(t, option.WithMaxMessageBytes(64), quietLog)
	big := strings.Repeat("x", 65)
	if err := saveCtx(bg, m, big, "ok"); !errors.Is(err, engram.ErrTooLarge) {
		t.Errorf("SaveContext = %v, want ErrTooLarge", err)
	}
	if err := m.Observe(bg, engram.Step{Kind: engram.StepToolResult, Text: big}); !errors.Is(err, engram.ErrTooLarge) {
		t.Errorf("Observe = %v, want ErrTooLarge", err)
	}
	if st := m.Stats(); st.Steps != 0 {
		t.Fatalf("%d steps stored", st.Steps)
	}
	err := m.Demote(bg, []engram.Demoted{
		{Unit: engram.Unit{ID: "a", Text: big}},
		{Unit: engram.Unit{ID: "b", Text: "The boat is blue."}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if st := m.Stats(); st.Steps != 1 {
		t.Errorf("%d steps stored by the demotion, want the one that fits", st.Steps)
	}
}
