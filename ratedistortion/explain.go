package ratedistortion

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/engram-go/engram"
)

// Selection is what the last load decided and why, in the knapsack's
// terms: the value of what was kept against its bound, and for each unit
// its features, utility parts and novelty. [Buffer.Explain] gives the
// shorter [engram.LoadReport] that every engram memory gives; this is the
// rest, from [Buffer.ExplainSelection].
type Selection struct {
	// Query is the text the load was asked about.
	Query string
	// Budget is the token budget; Tokens what the returned history costs,
	// counted exactly.
	Budget, Tokens int
	// Value is the utility of what was kept; Bound an upper bound on the
	// best achievable; Gap their relative difference (0 when Exact).
	Value, Bound, Gap float64
	// Exact reports that the selection is proven optimal.
	Exact bool
	// Summary is the summary of what was left out, and SummaryTokens its cost.
	Summary       string
	SummaryTokens int
	// Units reports every unit of the pool, oldest first.
	Units []SelectedUnit
}

// SelectedUnit is one unit's part in a load.
type SelectedUnit struct {
	ID    string
	Seq   int64
	Group int64
	Role  engram.Role
	Text  string
	Time  time.Time
	// Kept reports whether the unit was returned.
	Kept bool
	// Header is the date line shown before the unit, if any (see
	// [engram.UnitReport]).
	Header string
	// Tokens is the unit's cost as rendered.
	Tokens int
	// Features are what the scorer saw; Utility what it gave.
	Features engram.Features
	Utility  float64
	// Parts splits Utility when the scorer can (see [engram.Explainer]).
	Parts map[string]float64
	// Novelty is the share of the unit's group utility that nothing else
	// kept preserves: what is lost if the group goes, or gained if it comes.
	Novelty float64
	// Tier is where the unit came from: the pool's own, or recalled from
	// the long-term tier (see [WithLongTerm]) and cached in the pool.
	Tier engram.Tier
	// Recalled reports that the long-term tier returned the unit for this
	// load (it may have been cached by an earlier one).
	Recalled bool
	// Newest reports that the load kept the unit whatever its score, as one
	// of the newest messages (option.WithRecentMessages).
	Newest bool
	// Facts are what the unit states (see [option.WithFacts]); SupersededBy the
	// ID of the unit that states a newer value of one of their slots, which
	// this load gave the unit's relevance to, or "".
	Facts        []engram.Fact
	SupersededBy string
}

// Explain returns the report of the last load, in the shape every engram
// memory gives ([engram.LoadReport]), and false before any load and after
// Clear. [Buffer.ExplainSelection] has the knapsack's details.
func (b *Buffer) Explain() (engram.LoadReport, bool) {
	x, ok := b.ExplainSelection()
	if !ok {
		return engram.LoadReport{}, false
	}
	return x.Report(), true
}

// ExplainSelection returns the last load's selection in full (bound, gap,
// features, utility parts, novelty), and false before any load.
func (b *Buffer) ExplainSelection() (Selection, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.last == nil {
		return Selection{}, false
	}
	return *b.last.explanation(), true
}

// explanation records s; b.mu must be held.
func (s *selection) explanation() *Selection {
	x := &Selection{
		Query: s.query, Budget: s.budget, Tokens: s.tokens(),
		Value: s.sol.Value, Bound: s.sol.Bound(), Gap: s.sol.Gap(), Exact: s.sol.Exact,
		Summary: strings.TrimSuffix(summaryLines(s.summary), "\n"), SummaryTokens: s.sumTok,
	}
	weight := make(map[int]float64)
	for _, u := range s.units {
		weight[u.item] += u.utility
	}
	ex, _ := s.b.opts.scorer.(engram.Explainer)
	for i, u := range s.units {
		r := SelectedUnit{
			ID: u.e.unit.ID, Seq: u.e.unit.Seq, Group: u.e.unit.Group, Role: u.e.unit.Role,
			Text: u.e.unit.Text, Time: u.e.unit.Time, Kept: s.kept[i], Tokens: u.cost,
			Header:   strings.TrimSuffix(s.headers[i], "\n"),
			Features: u.features, Utility: u.utility,
			Tier: u.e.tier(), Recalled: u.e.origin != "" && s.recalled[u.e.origin],
			Facts: u.e.unit.Facts, SupersededBy: s.stale[u.e],
			Newest: s.kept[i] && slices.Contains(s.newest, u.item),
		}
		if w := weight[u.item]; w > 0 {
			r.Novelty = min(1, s.sol.Marginal()[u.item]/w)
		}
		if ex != nil {
			r.Parts = ex.Contributions(u.features)
		}
		x.Units = append(x.Units, r)
	}
	return x
}

// Report returns x in the shape every engram memory gives.
func (x Selection) Report() engram.LoadReport {
	r := engram.LoadReport{Query: x.Query, Budget: x.Budget, Tokens: x.Tokens, Summary: x.Summary,
		Units: make([]engram.UnitReport, len(x.Units))}
	for i, u := range x.Units {
		r.Units[i] = engram.UnitReport{
			ID: u.ID, Seq: u.Seq, Group: u.Group, Role: u.Role, Text: u.Text, Time: u.Time, Tokens: u.Tokens,
			Kept: u.Kept, Header: u.Header, Tier: u.Tier, Relevance: u.Features.Relevance, Utility: u.Utility,
			Features: u.Features, Why: u.why(), Facts: u.Facts, SupersededBy: u.SupersededBy,
		}
	}
	return r
}

// why says what decided u, in a few words.
func (u SelectedUnit) why() string {
	switch {
	case u.Features.Flags.Has(engram.FlagPinned):
		return "pinned"
	case u.Newest:
		return "one of the newest messages"
	case u.Kept: // a recalled unit's tier is its report's Tier, not repeated here
		return u.mostly()
	case u.SupersededBy != "":
		return "superseded by a newer statement"
	case u.Utility <= 0:
		return "worth nothing to this query"
	case u.Novelty < 0.5:
		return "repeats what was kept"
	}
	return "did not fit the budget"
}

// mostly names the largest part of u's utility, when the scorer splits it.
func (u SelectedUnit) mostly() string {
	best, part := 0.0, ""
	for k, v := range u.Parts {
		if v > best || (v == best && k < part) {
			best, part = v, k
		}
	}
	if part == "" {
		return "worth its tokens"
	}
	return "worth its tokens, mostly for " + part
}

// String renders the explanation as a short report: totals, then the kept
// units and the most useful dropped ones.
func (x Selection) String() string {
	var sb strings.Builder
	exact := fmt.Sprintf("gap ≤ %.1f%%", 100*x.Gap)
	if x.Exact {
		exact = "optimal"
	}
	fmt.Fprintf(&sb, "query %q: %d/%d tokens, utility %.3f (bound %.3f, %s)\n", x.Query, x.Tokens, x.Budget, x.Value, x.Bound, exact)
	if x.Summary != "" {
		fmt.Fprintf(&sb, "summary (%d tokens): %s\n", x.SummaryTokens, x.Summary)
	}
	var shown, dropped []SelectedUnit
	for _, u := range x.Units {
		if u.Kept {
			shown = append(shown, u)
		} else {
			dropped = append(dropped, u)
		}
	}
	sort.SliceStable(dropped, func(i, j int) bool { return dropped[i].Utility > dropped[j].Utility })
	more := 0
	if len(dropped) > 5 {
		dropped, more = dropped[:5], len(dropped)-5
	}
	kept := len(shown)
	shown = append(shown, dropped...)
	// Columns as wide as their widest cell, so that long ids and large
	// counts do not shift the rest.
	idw, rolew, tokw := 0, 0, 0
	for _, u := range shown {
		idw = max(idw, utf8.RuneCountInString(u.ID))
		rolew = max(rolew, utf8.RuneCountInString(u.Role.String()))
		tokw = max(tokw, len(strconv.Itoa(u.Tokens)))
	}
	for i, u := range shown {
		fate := "kept   "
		if i >= kept {
			fate = "dropped"
		}
		fmt.Fprintf(&sb, "  %s %s\n", fate, u.line(idw, rolew, tokw))
	}
	if more > 0 {
		fmt.Fprintf(&sb, "  … and %d more dropped\n", more)
	}
	return sb.String()
}

// line renders u with its id, role and token count padded to the widths
// given.
func (u SelectedUnit) line(idw, rolew, tokw int) string {
	t := u.Text
	if r := []rune(t); len(r) > 60 {
		t = string(r[:57]) + "…"
	}
	return fmt.Sprintf("%-*s %-*s tok=%-*d util=%.3f rel=%.2f rec=%.2f novel=%.2f %q",
		idw, u.ID, rolew, u.Role, tokw, u.Tokens, u.Utility, u.Features.Relevance, u.Features.Recency, u.Novelty, t)
}

// Explanation is [Selection].
//
// Deprecated: use Selection.
type Explanation = Selection

// UnitReport is [SelectedUnit].
//
// Deprecated: use SelectedUnit.
type UnitReport = SelectedUnit
