package engram

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// LoadReport is what a memory's last load kept, what it dropped, and why.
// Both engram memories return one from Explain, so the same code reads
// either: a unit is Kept exactly when its line is in the history the load
// returned, and Tokens is that history's exact cost.
type LoadReport struct {
	// Query is the text the load was asked about ("" for none).
	Query string
	// Budget is the token budget of the load; Tokens what the returned
	// history costs, counted exactly (Summary included).
	Budget, Tokens int
	// Summary is the line that stands in the history for what was left
	// out, when the memory adds one (ratedistortion.WithSummaryShare);
	// usually "".
	Summary string
	// Units are the units the load weighed, oldest first: every unit the
	// memory holds for a ratedistortion.Buffer, the candidates its search
	// gathered for a dmem.Memory (the nearest and best matching units, the
	// short-term buffer). What neither weighed is not listed.
	Units []UnitReport
}

// UnitReport is one unit's part in a load.
type UnitReport struct {
	// ID identifies the unit in its memory, Seq its place in the order of
	// saving, Group the units kept or dropped with it.
	ID         string
	Seq, Group int64
	// Role, Text and Time are the unit's, as saved (Time is zero when the
	// memory does not know it).
	Role Role
	Text string
	Time time.Time
	// Tokens is the unit's cost as the history renders it.
	Tokens int
	// Kept reports whether the load returned the unit.
	Kept bool
	// Header is the date line the history shows before a kept unit, such
	// as "[8 May 2023]", when it shows one: before the first unit of each
	// day of a history said over several days. Its cost counts in the
	// report's Tokens, not the unit's.
	Header string
	// Tier is where the unit came from: [TierWorking] for a one-tier
	// memory and a working context's own units, [TierLongTerm] for units
	// recalled from a long-term tier.
	Tier Tier
	// Facts are the facts the unit states (see [FactExtractor]), and
	// SupersededBy the ID of the newest unit that gives one of their slots
	// another value: the unit's statement is out of date, and its
	// relevance went to that unit. "" when none does.
	Facts        []Fact
	SupersededBy string
	// Relevance is the unit's relevance to the query, engram's one measure
	// (see [Features.Relevance]); 0 without a query.
	Relevance float64
	// Utility is what the selection weighed the unit by, to maximise
	// under the budget: its scorer's utility in a ratedistortion.Buffer,
	// its fused relevance and salience in a dmem.Memory. Compare it within
	// one report, not across memories.
	Utility float64
	// Features are what the memory's learned gate scores the unit by, so
	// that a caller can teach a gate from a report (gate.Gate.Hindsight):
	// what the scorer saw in a ratedistortion.Buffer, the unit's admission
	// features in a dmem.Memory.
	Features Features
	// Why says in a few words what decided: for example "pinned",
	// "relevant", "repeats a kept unit", "did not fit".
	Why string
}

// maxDroppedShown is how many dropped units [LoadReport.String] lists.
const maxDroppedShown = 5

// String renders the report: the totals, the kept units, and the five
// dropped ones of highest utility.
func (r LoadReport) String() string {
	var sb strings.Builder
	kept := 0
	var dropped []UnitReport
	for _, u := range r.Units {
		if u.Kept {
			kept++
		} else {
			dropped = append(dropped, u)
		}
	}
	fmt.Fprintf(&sb, "query %q: %d/%d tokens, kept %d of %d units\n", r.Query, r.Tokens, r.Budget, kept, len(r.Units))
	if r.Summary != "" {
		fmt.Fprintf(&sb, "summary: %s\n", r.Summary)
	}
	for _, u := range r.Units {
		if u.Kept {
			if u.Header != "" {
				fmt.Fprintf(&sb, "  %s\n", u.Header)
			}
			fmt.Fprintf(&sb, "  kept    %s\n", u.line())
		}
	}
	sort.SliceStable(dropped, func(i, j int) bool { return dropped[i].Utility > dropped[j].Utility })
	for i, u := range dropped {
		if i == maxDroppedShown {
			fmt.Fprintf(&sb, "  … and %d more dropped\n", len(dropped)-maxDroppedShown)
			break
		}
		fmt.Fprintf(&sb, "  dropped %s\n", u.line())
	}
	return sb.String()
}

func (u UnitReport) line() string {
	t := u.Text
	if r := []rune(t); len(r) > 60 {
		t = string(r[:57]) + "…"
	}
	tier := ""
	if u.Tier != TierWorking {
		tier = " " + u.Tier.String()
	}
	return fmt.Sprintf("%-6s %-5s tok=%-3d util=%.3f rel=%.2f%s %s: %q", u.ID, u.Role, u.Tokens, u.Utility, u.Relevance, tier, u.Why, t)
}
