package dmem

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/relevance"
)

// atStages returns a gathering for query over m as search begins it, with
// m.mu held for reading until the test ends.
func atStages(t *testing.T, m *Memory, query string) (*gathering, *relevance.Query) {
	t.Helper()
	m.mu.RLock()
	t.Cleanup(m.mu.RUnlock)
	g := m.newGathering()
	if query == "" {
		return g, nil
	}
	q := relevance.NewQuery(query, embed.Normalized(m.opts.Layout.Part(query)))
	return g, &q
}

// candidate returns the candidate whose text is text, or nil.
func candidate(g *gathering, text string) *cand {
	for i := range g.cs {
		if g.cs[i].text == text {
			return &g.cs[i]
		}
	}
	return nil
}

// chatter saves n small-talk pairs.
func chatter(t *testing.T, m *Memory, n int) {
	t.Helper()
	for i := range n {
		save(t, m, fmt.Sprintf("The bus was late again on day %d.", i), "That sounds tiring.")
	}
}

// TestGatherWithQuery: with a query, the gather stage finds the unit that
// matches it, best by relevance, and brings the short-term buffer whatever
// it says.
func TestGatherWithQuery(t *testing.T) {
	m := newMemory(t, WithShortTerm(4))
	save(t, m, "My gym locker code is 4821.", "Noted.")
	chatter(t, m, 40)
	g, q := atStages(t, m, "What is my gym locker code?")
	g.gather(q, nil, true)
	fact := candidate(g, "My gym locker code is 4821.")
	if fact == nil {
		t.Fatal("the unit that answers was not gathered")
	}
	for _, c := range g.cs {
		if c.rel > fact.rel {
			t.Errorf("%q gathered at relevance %.3f, above the answer's %.3f", c.text, c.rel, fact.rel)
		}
	}
	for _, u := range m.short {
		if !g.seen[u] {
			t.Errorf("short-term unit %q not gathered", u.Text)
		}
	}
	if len(g.cs) != len(g.rel) {
		t.Fatalf("%d candidates, %d relevances", len(g.cs), len(g.rel))
	}
}

// TestGatherWithoutQuery: without a query the gather stage takes the
// newest units, all at relevance 0.
func TestGatherWithoutQuery(t *testing.T) {
	m := newMemory(t, WithShortTerm(0), WithCandidates(8))
	chatter(t, m, 40)
	g, _ := atStages(t, m, "")
	g.gather(nil, nil, true)
	if len(g.cs) == 0 || len(g.cs) > 8 {
		t.Fatalf("%d candidates, want 1 to 8", len(g.cs))
	}
	newest := slices.MaxFunc(m.heap, func(a, b *unit) int { return int(a.Seq - b.Seq) })
	if !g.seen[newest] {
		t.Errorf("the newest unit %q was not gathered", newest.Text)
	}
	for _, c := range g.cs {
		if c.rel != 0 {
			t.Errorf("%q at relevance %.3f without a query", c.text, c.rel)
		}
	}
}

// TestExpandBringsToolPartners: a gathered tool call brings its result,
// which the query does not match.
func TestExpandBringsToolPartners(t *testing.T) {
	m := newMemory(t, WithShortTerm(0), WithCandidates(1))
	bg := context.Background()
	if err := m.Observe(bg, engram.Step{Kind: engram.StepToolCall, Text: `forecast({"city":"Lisbon"})`}); err != nil {
		t.Fatal(err)
	}
	if err := m.Observe(bg, engram.Step{Kind: engram.StepToolResult, Text: "status 200, 3 rows", Reward: 1}); err != nil {
		t.Fatal(err)
	}
	chatter(t, m, 20)
	g, q := atStages(t, m, "forecast for Lisbon")
	g.gather(q, nil, true)
	if candidate(g, `forecast({"city":"Lisbon"})`) == nil {
		t.Fatal("the tool call was not gathered")
	}
	if candidate(g, "status 200, 3 rows") != nil {
		t.Fatal("the result was gathered: the query should match the call alone")
	}
	before := len(g.cs)
	g.expand(q, nil, true)
	if candidate(g, "status 200, 3 rows") == nil {
		t.Errorf("expand did not bring the call's result (%d candidates, %d before)", len(g.cs), before)
	}
}

// TestExpandBringsWhatACorrectionTakesBack: a gathered correction brings
// the statement it corrects, and depends on it.
func TestExpandBringsWhatACorrectionTakesBack(t *testing.T) {
	m := newMemory(t, WithShortTerm(0), WithCandidates(1))
	chatter(t, m, 10)
	save(t, m, "The dentist appointment is on Tuesday.", "Noted.")
	save(t, m, "Sorry, I meant Thursday, not Tuesday.", "Got it.")
	chatter(t, m, 10)
	g, q := atStages(t, m, "meant Thursday")
	g.gather(q, nil, true)
	if candidate(g, "Sorry, I meant Thursday, not Tuesday.") == nil {
		t.Fatal("the correction was not gathered")
	}
	if candidate(g, "The dentist appointment is on Tuesday.") != nil {
		t.Fatal("the statement was gathered: the query should match the correction alone")
	}
	g.expand(q, nil, true)
	stmt := candidate(g, "The dentist appointment is on Tuesday.")
	corr := candidate(g, "Sorry, I meant Thursday, not Tuesday.")
	if stmt == nil {
		t.Fatal("expand did not bring the statement the correction takes back")
	}
	if corr.dep != stmt.id {
		t.Errorf("the correction depends on %q, want %q", corr.dep, stmt.id)
	}
}

// TestScoreFuses: the score stage ranks the answer first, scores every
// candidate in [0, 1], and gives each the features the load weighs.
func TestScoreFuses(t *testing.T) {
	m := newMemory(t)
	save(t, m, "My gym locker code is 4821.", "Noted.")
	chatter(t, m, 30)
	g, q := atStages(t, m, "What is my gym locker code?")
	g.gather(q, nil, true)
	g.score(g.expand(q, nil, true))
	best := slices.MaxFunc(g.cs, func(a, b cand) int {
		switch {
		case a.score < b.score:
			return -1
		case a.score > b.score:
			return 1
		}
		return 0
	})
	if best.text != "My gym locker code is 4821." {
		t.Errorf("best score %.3f for %q, want the answer", best.score, best.text)
	}
	for _, c := range g.cs {
		if c.score < 0 || c.score > 1 || c.kind <= 0 {
			t.Errorf("%q: score %.3f, kind %.3f", c.text, c.score, c.kind)
		}
		if c.f.Relevance != c.rel || c.f.Tokens != c.tokens || c.f.Role != c.role {
			t.Errorf("%q: features %+v do not describe the candidate", c.text, c.f)
		}
	}
}

// TestCandidatesFarAboveHeld: a candidate count far above what the memory
// holds costs what is held, and does not fail.
func TestCandidatesFarAboveHeld(t *testing.T) {
	m := newMemory(t, WithCandidates(1<<40))
	chatter(t, m, 3)
	if h := load(t, m, "bus"); !strings.Contains(h, "bus") {
		t.Errorf("history %q", h)
	}
}
