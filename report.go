package engram

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
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
// dropped ones of highest utility, one a line, in aligned columns: id,
// role, tokens, utility, relevance, the tier for units recalled from a
// long-term tier, then why and the text.
func (r LoadReport) String() string {
	var sb strings.Builder
	var kept, dropped []UnitReport
	for _, u := range r.Units {
		if u.Kept {
			kept = append(kept, u)
		} else {
			dropped = append(dropped, u)
		}
	}
	fmt.Fprintf(&sb, "query %q: %d/%d tokens, kept %d of %d units\n", r.Query, r.Tokens, r.Budget, len(kept), len(r.Units))
	if r.Summary != "" {
		fmt.Fprintf(&sb, "summary: %s\n", r.Summary)
	}
	sort.SliceStable(dropped, func(i, j int) bool { return dropped[i].Utility > dropped[j].Utility })
	more := 0
	if len(dropped) > maxDroppedShown {
		dropped, more = dropped[:maxDroppedShown], len(dropped)-maxDroppedShown
	}
	rows := make([][]string, 0, len(kept)+len(dropped))
	for _, u := range kept {
		rows = append(rows, u.cells("kept"))
	}
	for _, u := range dropped {
		rows = append(rows, u.cells("dropped"))
	}
	lines := align(rows)
	for i, u := range kept {
		if u.Header != "" {
			fmt.Fprintf(&sb, "  %s\n", u.Header)
		}
		fmt.Fprintf(&sb, "  %s\n", lines[i])
	}
	for _, l := range lines[len(kept):] {
		fmt.Fprintf(&sb, "  %s\n", l)
	}
	if more > 0 {
		fmt.Fprintf(&sb, "  … and %d more dropped\n", more)
	}
	return sb.String()
}

// cells are the columns of u's line, the last unpadded: what became of it,
// id, role, tokens, utility, relevance, tier ("" for the working tier),
// and why, with the start of its text.
func (u UnitReport) cells(fate string) []string {
	t := u.Text
	if r := []rune(t); len(r) > 60 {
		t = string(r[:57]) + "…"
	}
	tier := ""
	if u.Tier != TierWorking {
		tier = u.Tier.String()
	}
	return []string{fate, u.ID, u.Role.String(), fmt.Sprintf("tok=%d", u.Tokens), fmt.Sprintf("util=%.3f", u.Utility),
		fmt.Sprintf("rel=%.2f", u.Relevance), tier, fmt.Sprintf("%s: %q", u.Why, t)}
}

// align joins each row's cells with a space, each column padded to its
// widest cell, so that long ids or large counts do not shift the columns
// after them. A column empty in every row is left out.
func align(rows [][]string) []string {
	var width []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	out := make([]string, len(rows))
	for k, r := range rows {
		var sb strings.Builder
		for i, c := range r {
			if width[i] == 0 {
				continue
			}
			if sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(c)
			if i < len(r)-1 {
				sb.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)))
			}
		}
		out[k] = sb.String()
	}
	return out
}
