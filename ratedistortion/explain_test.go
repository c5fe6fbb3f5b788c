package ratedistortion

import (
	"strings"
	"testing"

	"github.com/engram-go/engram"
)

// TestSelectionColumnsAlign: the selection's report keeps its columns
// aligned when ids and token counts differ in width, as a unit recalled
// from a long-term tier has another memory's id.
func TestSelectionColumnsAlign(t *testing.T) {
	x := Selection{Query: "q", Budget: 100, Units: []SelectedUnit{
		{ID: "u3", Role: engram.RoleHuman, Tokens: 5, Kept: true, Text: "short"},
		{ID: "default/agent/session/u1234567", Role: engram.RoleToolResult, Tokens: 12345, Kept: true, Text: "long"},
		{ID: "u9", Role: engram.RoleAI, Tokens: 40, Text: "dropped"},
	}}
	s := x.String()
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")[1:]
	if len(lines) != 3 {
		t.Fatalf("want three unit lines:\n%s", s)
	}
	for _, col := range []string{"tok=", "util=", "novel="} {
		at := strings.Index(lines[0], col)
		for _, l := range lines[1:] {
			if i := strings.Index(l, col); i != at {
				t.Errorf("%s at %d and %d:\n%s", col, at, i, s)
			}
		}
	}
}
