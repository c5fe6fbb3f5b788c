package engram

import (
	"fmt"
	"strings"
	"testing"
)

// TestLoadReportString: the kept units all, then the five dropped units of
// highest utility, best first, and a count of the rest.
func TestLoadReportString(t *testing.T) {
	r := LoadReport{Budget: 10, Units: []UnitReport{{ID: "k", Kept: true, Why: "relevant"}}}
	for i := range 8 {
		r.Units = append(r.Units, UnitReport{ID: fmt.Sprintf("d%d", i), Utility: float64(i), Why: "did not fit the budget"})
	}
	s := r.String()
	if !strings.Contains(s, "kept 1 of 9 units") || strings.Count(s, "  kept    k ") != 1 {
		t.Fatalf("the kept unit or the totals are missing:\n%s", s)
	}
	if strings.Count(s, "  dropped ") != 5 || !strings.Contains(s, "… and 3 more dropped") {
		t.Fatalf("want five dropped units and a count of three more:\n%s", s)
	}
	if i, j := strings.Index(s, "dropped d7"), strings.Index(s, "dropped d3"); i < 0 || j < 0 || i > j || strings.Contains(s, "dropped d2") {
		t.Fatalf("the dropped units are not the most useful, best first:\n%s", s)
	}
}

// TestLoadReportColumnsAlign: long ids, large counts and negative
// utilities do not shift the columns after them; every unit's line has its
// tokens, utility, relevance and why at the same place.
func TestLoadReportColumnsAlign(t *testing.T) {
	r := LoadReport{Query: "q", Budget: 100, Units: []UnitReport{
		{ID: "u1", Role: RoleHuman, Tokens: 5, Utility: 0.5, Kept: true, Why: "relevant", Text: "short"},
		{ID: "default/agent/session/unit-000123456", Role: RoleToolResult, Tokens: 12345, Utility: -12.25, Kept: true, Why: "pinned", Text: "long"},
		{ID: "u3", Role: RoleAI, Tokens: 40, Utility: 0.25, Why: "did not fit the budget", Text: "dropped one"},
	}}
	s := r.String()
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")[1:]
	if len(lines) != 3 {
		t.Fatalf("want three unit lines:\n%s", s)
	}
	for _, col := range []string{"tok=", "util=", "rel=", `"`} {
		at := -1
		for _, l := range lines {
			i := strings.Index(l, col)
			if i < 0 {
				t.Fatalf("line lacks %q: %q", col, l)
			}
			if col == `"` { // where why starts: after the relevance column
				i = strings.Index(l, "rel=") + len("rel=0.00 ")
			}
			if at >= 0 && i != at {
				t.Errorf("column %q at %d and %d:\n%s", col, at, i, s)
			}
			at = i
		}
	}
	if strings.Contains(s, "long-term") {
		t.Errorf("a tier column with no unit from a long-term tier:\n%s", s)
	}
}

// TestLoadReportTierOnce: a unit recalled from a long-term tier says so once,
// in its tier column, and its neighbours' columns stay aligned.
func TestLoadReportTierOnce(t *testing.T) {
	r := LoadReport{Units: []UnitReport{
		{ID: "u1", Kept: true, Tier: TierLongTerm, Why: "worth its tokens", Text: "from the tier"},
		{ID: "u2", Kept: true, Why: "worth its tokens", Text: "from the pool"},
	}}
	s := r.String()
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")[1:]
	if n := strings.Count(lines[0], "long-term"); n != 1 {
		t.Errorf("the recalled unit names its tier %d times:\n%s", n, s)
	}
	if strings.Index(lines[0], "worth") != strings.Index(lines[1], "worth") {
		t.Errorf("why is not aligned:\n%s", s)
	}
}
