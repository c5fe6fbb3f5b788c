package dmem

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/option"
	"github.com/tmc/langchaingo/schema"
)

// Omar's home city, stated, restated and changed.
var (
	lisbon    = engram.Fact{Subject: "Omar", Relation: "home city", Value: "Lisbon"}
	edinburgh = engram.Fact{Subject: "Omar", Relation: "home city", Value: "Edinburgh"}
)

const (
	saidLisbon    = "Omar: I live in Lisbon, right by the river."
	saidEdinburgh = "Omar: we relocated to Edinburgh last month."
	omarQuestion  = "Which city does Omar live in?"
)

// mapExtractor reads the facts of a text from a table, and records the
// known slots it was given for each text.
type mapExtractor struct {
	facts map[string][]engram.Fact
	mu    sync.Mutex
	known map[string][]engram.Fact
	calls int
}

func (x *mapExtractor) extract(_ context.Context, u engram.Unit, known []engram.Fact) ([]engram.Fact, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.calls++
	if x.known == nil {
		x.known = make(map[string][]engram.Fact)
	}
	x.known[u.Text] = known
	return x.facts[u.Text], nil
}

// omar saves the statement of Omar's city, forty turns of filler, and
// then the second statement.
func omar(t *testing.T, m *Memory, then string) {
	t.Helper()
	save := func(in, out string) {
		t.Helper()
		if err := m.SaveContext(bg, map[string]any{"input": in}, map[string]any{"output": out}); err != nil {
			t.Fatal(err)
		}
	}
	save(saidLisbon, "Lovely, the light there is famous.")
	for i := range 40 {
		save(fmt.Sprintf("Filler turn %d about the %s and the %s.", i, fxDishes[i%len(fxDishes)], fxSports[i%len(fxSports)]),
			fmt.Sprintf("Noted, item %d.", i))
	}
	save(then, "Good to know.")
}

func omarExtractor() *mapExtractor {
	return &mapExtractor{facts: map[string][]engram.Fact{
		saidLisbon:    {lisbon},
		saidEdinburgh: {edinburgh},
		// The relation said another way still names Omar's one slot.
		"Omar: still in Lisbon, I love it here.": {{Subject: "omar", Relation: "Home  City", Value: "lisbon"}},
	}}
}

// TestFactsSupersede: a question that matches only the old statement
// returns the new one within a budget too tight for both turns of filler
// around it, and Explain says who superseded the old one.
func TestFactsSupersede(t *testing.T) {
	x := omarExtractor()
	m := newMemory(t, option.WithFacts(x.extract), option.WithTokenBudget(24))
	omar(t, m, saidEdinburgh)
	v, err := m.LoadMemoryVariables(bg, map[string]any{"input": omarQuestion})
	if err != nil {
		t.Fatal(err)
	}
	h := v["history"].(string)
	if !strings.Contains(h, "Edinburgh") {
		t.Fatalf("history for %q lacks the new statement:\n%s", omarQuestion, h)
	}
	r, _ := m.Explain()
	var old, now *engram.UnitReport
	for i, u := range r.Units {
		switch u.Text {
		case saidLisbon:
			old = &r.Units[i]
		case saidEdinburgh:
			now = &r.Units[i]
		}
	}
	if old == nil || now == nil {
		t.Fatalf("Explain lacks a statement (old %v, new %v):\n%s", old, now, r)
	}
	if old.SupersededBy != now.ID || now.SupersededBy != "" || !now.Kept {
		t.Errorf("old superseded by %q, new by %q (kept %v); want %q, \"\", kept", old.SupersededBy, now.SupersededBy, now.Kept, now.ID)
	}
	if !reflect.DeepEqual(old.Facts, []engram.Fact{lisbon}) || !reflect.DeepEqual(now.Facts, []engram.Fact{edinburgh}) {
		t.Errorf("reported facts %v and %v", old.Facts, now.Facts)
	}
	if now.Utility < old.Utility || now.Relevance < old.Relevance {
		t.Errorf("the new statement weighs %.3f (relevance %.3f), less than the old one's %.3f (%.3f)", now.Utility, now.Relevance, old.Utility, old.Relevance)
	}
	e, err := m.ExplainUnit(old.ID)
	if err != nil || e.SupersededBy != now.ID || !reflect.DeepEqual(e.Facts, []engram.Fact{lisbon}) {
		t.Errorf("ExplainUnit(%s) = %+v, %v; want superseded by %s", old.ID, e, err, now.ID)
	}
	if k := x.known[saidEdinburgh]; len(k) == 0 || k[0] != lisbon {
		t.Errorf("the extractor was told %v before the new statement, want %v first", k, lisbon)
	}
	// The reply is told what the turn it answers stated.
	if k := x.known["Good to know."]; len(k) == 0 || k[0] != edinburgh {
		t.Errorf("the extractor was told %v before the reply, want %v first", k, edinburgh)
	}
}

// TestFactsRestated: stating a slot's value again supersedes nothing.
func TestFactsRestated(t *testing.T) {
	x := omarExtractor()
	m := newMemory(t, option.WithFacts(x.extract), option.WithTokenBudget(24))
	omar(t, m, "Omar: still in Lisbon, I love it here.")
	if _, err := m.LoadMemoryVariables(bg, map[string]any{"input": omarQuestion}); err != nil {
		t.Fatal(err)
	}
	r, _ := m.Explain()
	for _, u := range r.Units {
		if u.SupersededBy != "" {
			t.Errorf("%s %q is superseded by %s after a restatement", u.ID, u.Text, u.SupersededBy)
		}
	}
}

// TestFactsChangeBack: a step that states a slot's old value again is news,
// not a repeat to merge into the old statement.
func TestFactsChangeBack(t *testing.T) {
	x := omarExtractor()
	m := newMemory(t, option.WithFacts(x.extract), option.WithTokenBudget(60))
	omar(t, m, saidEdinburgh)
	if err := m.SaveContext(bg, map[string]any{"input": saidLisbon}, map[string]any{"output": "Back home!"}); err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, r := range []Route{RouteCore, RouteShort} {
		for _, u := range m.UnitsIn(r) {
			if u.Text == saidLisbon {
				said = append(said, u.ID)
			}
		}
	}
	if len(said) != 2 {
		t.Fatalf("Lisbon stated again is stored as %v, want two units", said)
	}
	for _, id := range said {
		if e, _ := m.ExplainUnit(id); e.SupersededBy != "" {
			t.Errorf("%s is superseded by %s, though Lisbon is the newest value", id, e.SupersededBy)
		}
	}
}

// TestFactsExtractorFails: an extractor's error or panic is logged, once
// a call, and the unit is stored without facts; a cancelled context still
// fails the save.
func TestFactsExtractorFails(t *testing.T) {
	for _, c := range []struct {
		name string
		ex   engram.FactExtractor
		log  string
	}{
		{"error", func(context.Context, engram.Unit, []engram.Fact) ([]engram.Fact, error) {
			return []engram.Fact{lisbon}, errors.New("model unavailable")
		}, "model unavailable"},
		{"panic", func(context.Context, engram.Unit, []engram.Fact) ([]engram.Fact, error) { panic("out of range") }, "out of range"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			var mu sync.Mutex
			m := newMemory(t, option.WithFacts(c.ex), option.WithLogger(slog.New(slog.NewTextHandler(lockedWriter{&mu, &buf}, nil))))
			if err := m.SaveContext(bg, map[string]any{"input": saidLisbon}, map[string]any{"output": "Nice."}); err != nil {
				t.Fatalf("save failed with the extractor failing: %v", err)
			}
			for _, r := range []Route{RouteCore, RouteShort} {
				for _, u := range m.UnitsIn(r) {
					if u.Facts != nil {
						t.Errorf("%s stored with facts %v", u.ID, u.Facts)
					}
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if n := strings.Count(buf.String(), c.log); n != 2 {
				t.Errorf("two calls logged %d times:\n%s", n, buf.String())
			}
		})
	}
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(bg)
		m := newMemory(t, option.WithFacts(func(ctx context.Context, _ engram.Unit, _ []engram.Fact) ([]engram.Fact, error) {
			cancel()
			return nil, ctx.Err()
		}))
		if err := m.SaveContext(ctx, map[string]any{"input": saidLisbon}, map[string]any{"output": "Nice."}); !errors.Is(err, context.Canceled) {
			t.Fatalf("save with the context cancelled during extraction: %v, want context.Canceled", err)
		}
		if st := m.Stats(); st.Steps != 0 {
			t.Errorf("%d steps stored by a cancelled save", st.Steps)
		}
	})
}

// TestFactsNilExtractor: option.WithFacts(nil) is refused.
func TestFactsNilExtractor(t *testing.T) {
	if _, err := New(bg, option.WithFacts(nil)); !errors.Is(err, engram.ErrInvalidOption) {
		t.Fatalf("option.WithFacts(nil): err = %v, want ErrInvalidOption", err)
	}
}

// TestFactsReopen: facts survive closing and reopening the embedded store,
// and the reopened memory knows which unit supersedes which.
func TestFactsReopen(t *testing.T) {
	dir := t.TempDir()
	x := omarExtractor()
	m, err := New(bg, WithPath(dir), option.WithFacts(x.extract), option.WithTokenBudget(24))
	if err != nil {
		t.Fatal(err)
	}
	omar(t, m, saidEdinburgh)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	m = newMemory(t, WithPath(dir), option.WithTokenBudget(24)) // no extractor: the facts are the record's
	var old, now engram.Unit
	for _, r := range []Route{RouteCore, RouteShort} {
		for _, u := range m.UnitsIn(r) {
			switch u.Text {
			case saidLisbon:
				old = u
			case saidEdinburgh:
				now = u
			}
		}
	}
	if !reflect.DeepEqual(old.Facts, []engram.Fact{lisbon}) || !reflect.DeepEqual(now.Facts, []engram.Fact{edinburgh}) {
		t.Fatalf("reopened units state %v and %v", old.Facts, now.Facts)
	}
	if e, err := m.ExplainUnit(old.ID); err != nil || e.SupersededBy != now.ID {
		t.Fatalf("reopened: %s superseded by %q (%v), want %s", old.ID, e.SupersededBy, err, now.ID)
	}
	v, err := m.LoadMemoryVariables(bg, map[string]any{"input": omarQuestion})
	if err != nil || !strings.Contains(v["history"].(string), "Edinburgh") {
		t.Fatalf("reopened history for %q: %v, %v", omarQuestion, v["history"], err)
	}
}

// TestFactsDemoted: a unit demoted with facts keeps them, unread by the
// extractor; one demoted without is read; Recall returns both with theirs.
func TestFactsDemoted(t *testing.T) {
	x := omarExtractor()
	m := newMemory(t, option.WithFacts(x.extract))
	carried := []engram.Fact{{Subject: "Omar", Relation: "home city", Value: "Porto"}}
	err := m.Demote(bg, []engram.Demoted{
		{Unit: engram.Unit{Role: engram.RoleHuman, Text: saidLisbon, Facts: carried}, Retrieved: 1},
		{Unit: engram.Unit{Role: engram.RoleHuman, Text: saidEdinburgh}, Retrieved: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	if x.calls != 1 {
		t.Errorf("the extractor read %d demoted units, want 1 (the one without facts)", x.calls)
	}
	// A unit the working context's extractor read and found nothing in
	// is not read again.
	if err := m.Demote(bg, []engram.Demoted{{Unit: engram.Unit{Role: engram.RoleHuman, Text: "Omar: nothing to report."}, FactsRead: true}}); err != nil {
		t.Fatal(err)
	}
	if x.calls != 1 {
		t.Errorf("the extractor read a unit demoted as read: %d calls", x.calls)
	}
	us, err := m.Recall(bg, "Omar Lisbon Edinburgh", 200)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]engram.Fact{}
	for _, u := range us {
		got[u.Text] = u.Facts
	}
	if !reflect.DeepEqual(got[saidLisbon], carried) || !reflect.DeepEqual(got[saidEdinburgh], []engram.Fact{edinburgh}) {
		t.Fatalf("recalled facts %v", got)
	}
}

// TestFactsEvicted: when the newer statement leaves memory, the older one
// holds its slot again.
func TestFactsEvicted(t *testing.T) {
	x := omarExtractor()
	m := newMemory(t, option.WithFacts(x.extract))
	ids, err := m.AddDocuments(bg, []schema.Document{{PageContent: saidLisbon}, {PageContent: saidEdinburgh}})
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := m.ExplainUnit(ids[0]); e.SupersededBy != ids[1] {
		t.Fatalf("%s superseded by %q, want %s", ids[0], e.SupersededBy, ids[1])
	}
	m.mu.Lock()
	u := m.byID[ids[1]]
	m.unplace(u)
	m.mu.Unlock()
	if e, _ := m.ExplainUnit(ids[0]); e.SupersededBy != "" {
		t.Fatalf("%s superseded by %q after its successor left", ids[0], e.SupersededBy)
	}
}

// A question that shares no word with a slot's only statement finds it
// through the slot's own words ("Omar employer"), and only with facts.
func TestFactsSlotWordsFindTheNewest(t *testing.T) {
	poached := "Omar: Guess who got poached? I'm with Larkspur Games now."
	x := &mapExtractor{facts: map[string][]engram.Fact{poached: {{Subject: "Omar", Relation: "employer", Value: "Larkspur Games"}}}}
	for _, with := range []bool{false, true} {
		opts := []Option{option.WithTokenBudget(40)}
		if with {
			opts = append(opts, option.WithFacts(x.extract))
		}
		m := newMemory(t, opts...)
		if err := m.SaveContext(bg, map[string]any{"input": poached}, map[string]any{"output": "Congratulations!"}); err != nil {
			t.Fatal(err)
		}
		for i := range 30 {
			if err := m.SaveContext(bg, map[string]any{"input": fmt.Sprintf("Omar: marathon week %d, the %s was great.", i, fxDishes[i%len(fxDishes)])},
				map[string]any{"output": fmt.Sprintf("Keep going, %d weeks done!", i)}); err != nil {
				t.Fatal(err)
			}
		}
		vars, err := m.LoadMemoryVariables(bg, map[string]any{"input": "Which company does Omar work for these days?"})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(vars["history"].(string), "Larkspur"); got != with {
			t.Errorf("with facts %v: the statement shown %v:\n%s", with, got, vars["history"])
		}
	}
}

// flakyDocs is the default embedder whose EmbedDocuments fails after its
// first ok calls.
type flakyDocs struct {
	mu    sync.Mutex
	ok    int
	calls int
	e     *embed.Embedder
}

func (f *flakyDocs) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	f.mu.Lock()
	f.calls++
	fail := f.calls > f.ok
	f.mu.Unlock()
	if fail {
		return nil, errors.New("embedder down")
	}
	return f.e.EmbedDocuments(ctx, texts)
}

func (f *flakyDocs) EmbedQuery(ctx context.Context, s string) ([]float32, error) {
	return f.e.EmbedQuery(ctx, s)
}

func TestFactsSlotEmbeddingFailureIsLogged(t *testing.T) {
	var logs bytes.Buffer
	def, err := embed.New()
	if err != nil {
		t.Fatal(err)
	}
	e := &flakyDocs{ok: 1, e: def}
	m := newMemory(t, option.WithFacts(omarExtractor().extract), option.WithEmbedder(e), option.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))), option.WithTokenBudget(200))
	if err := m.SaveContext(bg, map[string]any{"input": saidLisbon}, map[string]any{"output": "Nice."}); err != nil {
		t.Fatal(err)
	}
	vars, err := m.LoadMemoryVariables(bg, map[string]any{"input": omarQuestion})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(vars["history"].(string), "Lisbon") || !strings.Contains(logs.String(), "fact slots not embedded") {
		t.Fatalf("history:\n%s\nlog:\n%s", vars["history"], logs.String())
	}
}

// TestFactsManyReopen: a unit whose extractor lists more facts than a
// record read from disk may hold is not lost when the memory is reopened.
func TestFactsManyReopen(t *testing.T) {
	dir := t.TempDir()
	ex := func(_ context.Context, u engram.Unit, _ []engram.Fact) ([]engram.Fact, error) {
		fs := []engram.Fact{lisbon}
		for i := range maxFacts + 100 {
			fs = append(fs, engram.Fact{Subject: "Omar", Relation: fmt.Sprintf("hobby %d", i), Value: "chess"})
		}
		return fs, nil
	}
	m, err := New(bg, WithPath(dir), option.WithFacts(ex))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.AddDocuments(bg, []schema.Document{{PageContent: saidLisbon}}); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	m = newMemory(t, WithPath(dir))
	if us := m.UnitsIn(RouteCore); len(us) != 1 || len(us[0].Facts) == 0 || len(us[0].Facts) > maxFacts {
		t.Fatalf("reopened core memory holds %d units", len(us))
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
