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
