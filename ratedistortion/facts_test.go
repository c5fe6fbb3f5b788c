package ratedistortion

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/option"
)

// keyed is a fact extractor that knows some texts' facts, and records the
// known slots each call was given.
type keyed struct {
	mu    sync.Mutex
	facts map[string][]engram.Fact
	known [][]engram.Fact
	err   error
	panic bool
}

func (k *keyed) extract(_ context.Context, u engram.Unit, known []engram.Fact) ([]engram.Fact, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.known = append(k.known, known)
	if k.panic {
		panic("extractor bug")
	}
	if k.err != nil {
		return nil, k.err
	}
	return k.facts[u.Text], nil
}

func omarCity(v string) engram.Fact {
	return engram.Fact{Subject: "Omar", Relation: "home city", Value: v}
}

const (
	oldCity = "Omar: I live in Lisbon, in a little flat above a bakery."
	newCity = "Omar: We relocated to Edinburgh last month, fresh start and all that."
)

// moved saves the old statement, filler, then the new one, which shares
// no word with the question.
func moved(t *testing.T, b *Buffer) {
	t.Helper()
	save(t, b, oldCity, "Ana: Lovely, I hope the bread is good.")
	for i := range 30 {
		save(t, b, fmt.Sprintf("Omar: Training for the marathon, week %d, legs sore again.", i),
			fmt.Sprintf("Ana: Keep going, %d weeks done already!", i))
	}
	save(t, b, newCity, "Ana: What a change!")
}

func cityFacts() *keyed {
	return &keyed{facts: map[string][]engram.Fact{oldCity: {omarCity("Lisbon")}, newCity: {omarCity("Edinburgh")}}}
}

func TestFactsSupersedeTheOldValue(t *testing.T) {
	const q = "Which city does Omar live in?"
	// Without facts the old value answers: the new statement shares no
	// word with the question.
	plain := newBuffer(t, option.WithTokenBudget(40))
	moved(t, plain)
	if h := load(t, plain, q); strings.Contains(h, "Edinburgh") || !strings.Contains(h, "Lisbon") {
		t.Fatalf("without facts the test shows nothing: the new value was found or the old lost:\n%s", h)
	}

	b := newBuffer(t, option.WithTokenBudget(40), option.WithFacts(cityFacts().extract))
	moved(t, b)
	h := load(t, b, q)
	if !strings.Contains(h, "Edinburgh") {
		t.Fatalf("the newest value is not shown:\n%s", h)
	}
	x, _ := b.ExplainSelection()
	var oldR, newR *SelectedUnit
	for i, u := range x.Units {
		switch u.Text {
		case oldCity:
			oldR = &x.Units[i]
		case newCity:
			newR = &x.Units[i]
		}
	}
	if oldR == nil || newR == nil {
		t.Fatal("Explain lost a statement")
	}
	if oldR.SupersededBy != newR.ID || newR.SupersededBy != "" {
		t.Errorf("SupersededBy: old %q, new %q; want %q, \"\"", oldR.SupersededBy, newR.SupersededBy, newR.ID)
	}
	if !slices.Equal(oldR.Facts, []engram.Fact{omarCity("Lisbon")}) || !slices.Equal(newR.Facts, []engram.Fact{omarCity("Edinburgh")}) {
		t.Errorf("facts: old %v, new %v", oldR.Facts, newR.Facts)
	}
	if newR.Features.Relevance < oldR.Features.Relevance {
		t.Errorf("the new statement's relevance %.3f is below the old one's %.3f", newR.Features.Relevance, oldR.Features.Relevance)
	}
	r, _ := b.Explain()
	for _, u := range r.Units {
		if u.Text == oldCity && u.SupersededBy != newR.ID {
			t.Errorf("engram report: SupersededBy %q", u.SupersededBy)
		}
	}
}

func TestFactsRestatedSupersedeNothing(t *testing.T) {
	same := "Omar: Still in Lisbon, still above the bakery."
	k := cityFacts()
	k.facts[same] = []engram.Fact{{Subject: "omar", Relation: "Home City", Value: "lisbon"}}
	b := newBuffer(t, option.WithTokenBudget(400), option.WithFacts(k.extract))
	save(t, b, oldCity, "Ana: Nice.")
	save(t, b, same, "Ana: Good.")
	load(t, b, "Which city does Omar live in?")
	x, _ := b.ExplainSelection()
	for _, u := range x.Units {
		if u.SupersededBy != "" {
			t.Errorf("%q superseded by %s, though it says the same", u.Text, u.SupersededBy)
		}
	}
}

func TestFactsExtractorSeesKnownSlots(t *testing.T) {
	k := cityFacts()
	b := newBuffer(t, option.WithFacts(k.extract))
	save(t, b, oldCity, "Ana: Nice.")
	save(t, b, newCity, "Ana: Wow.")
	// Each unit sees the slots known before it, and what the units of its
	// save before it stated: none, then Lisbon (the reply is told what its
	// question said), then Lisbon.
	if len(k.known) != 4 || len(k.known[0]) != 0 || !slices.Equal(k.known[1], []engram.Fact{omarCity("Lisbon")}) ||
		!slices.Equal(k.known[2], []engram.Fact{omarCity("Lisbon")}) {
		t.Fatalf("known slots by call: %v", k.known)
	}
}

func TestFactsExtractorFailureLosesNothing(t *testing.T) {
	for _, tt := range []struct {
		name string
		k    *keyed
	}{
		{"error", &keyed{err: errors.New("model down")}},
		{"panic", &keyed{panic: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			b := newBuffer(t, option.WithFacts(tt.k.extract), option.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
			save(t, b, oldCity, "Ana: Nice.")
			if n := b.Len(); n != 2 {
				t.Fatalf("%d units stored, want 2", n)
			}
			for _, u := range b.Units() {
				if u.Facts != nil {
					t.Errorf("%q has facts %v", u.Text, u.Facts)
				}
			}
			if !strings.Contains(logs.String(), "fact extractor failed") {
				t.Errorf("the failure was not logged:\n%s", logs.String())
			}
		})
	}
}

func TestFactsNilExtractorRefused(t *testing.T) {
	if _, err := New(option.WithFacts(nil)); !errors.Is(err, engram.ErrInvalidOption) {
		t.Fatalf("New(option.WithFacts(nil)) = %v, want ErrInvalidOption", err)
	}
}

func TestFactsInvalidAreDropped(t *testing.T) {
	k := &keyed{facts: map[string][]engram.Fact{oldCity: {{Subject: "Omar", Relation: "", Value: "x"}, omarCity("Lisbon"), omarCity("Lisboa")}}}
	b := newBuffer(t, option.WithFacts(k.extract))
	save(t, b, oldCity, "Ana: Nice.")
	if got := b.Units()[0].Facts; !slices.Equal(got, []engram.Fact{omarCity("Lisboa")}) {
		t.Fatalf("facts kept %v, want the one valid fact per slot, the last given", got)
	}
}

func TestFactsSurviveSaveAndRestore(t *testing.T) {
	k := cityFacts()
	b := newBuffer(t, option.WithTokenBudget(40), option.WithFacts(k.extract))
	moved(t, b)
	r, err := Restore(context.Background(), bytes.NewReader(saved(t, b)), option.WithTokenBudget(40))
	if err != nil {
		t.Fatal(err)
	}
	// Restored without an extractor, the units keep what was read.
	if h := load(t, r, "Which city does Omar live in?"); !strings.Contains(h, "Edinburgh") {
		t.Fatalf("after Restore the newest value is not shown:\n%s", h)
	}
	for _, u := range r.Units() {
		if u.Text == newCity && !slices.Equal(u.Facts, []engram.Fact{omarCity("Edinburgh")}) {
			t.Fatalf("restored facts %v", u.Facts)
		}
	}
}

func TestRestoreReadsVersion2(t *testing.T) {
	b := newBuffer(t, option.WithTokenBudget(200))
	save(t, b, "Ana: I live in Lisbon.", "Ben: Lovely.")
	v2 := b.snapshot().encodeVersion(2)
	r, err := Restore(context.Background(), bytes.NewReader(v2), option.WithTokenBudget(200))
	if err != nil {
		t.Fatalf("a version 2 file: %v", err)
	}
	if got, want := load(t, r, "Where does Ana live?"), load(t, b, "Where does Ana live?"); got != want {
		t.Fatalf("restored from version 2:\n%s\nwant\n%s", got, want)
	}
}

func TestFactsCapFallsBackToTheNewestLeft(t *testing.T) {
	k := cityFacts()
	mid := "Omar: For now we are staying in Porto with my aunt."
	k.facts[mid] = []engram.Fact{omarCity("Porto")}
	b := newBuffer(t, option.WithFacts(k.extract), option.WithMaxUnits(8), option.WithTokenBudget(400), quiet)
	save(t, b, oldCity, "Ana: Nice.")
	save(t, b, mid, "Ana: Family!")
	for i := range 6 {
		save(t, b, fmt.Sprintf("Omar: filler %d", i), "Ana: ok")
	}
	// The cap dropped the oldest units; Lisbon, if kept, is superseded by
	// Porto, and Porto by nothing.
	load(t, b, "Which city does Omar live in?")
	x, _ := b.ExplainSelection()
	for _, u := range x.Units {
		if u.Text == mid && u.SupersededBy != "" {
			t.Errorf("the newest statement left is superseded by %s", u.SupersededBy)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.pool {
		if _, ok := b.slots.SupersededBy(e.unit.Seq, e.unit.Facts); ok && e.unit.Text != oldCity {
			t.Errorf("%q is superseded", e.unit.Text)
		}
	}
}

func TestFactsRecalledUnitSupersededByThePool(t *testing.T) {
	lt := &fakeTier{}
	k := cityFacts()
	b := newBuffer(t, option.WithTokenBudget(40), option.WithFacts(k.extract), WithLongTerm(lt), option.WithMaxUnits(20),
		option.WithLogger(slog.New(slog.DiscardHandler)))
	moved(t, b)
	// The cap handed the old statement down with its facts; the tier
	// returns it on a query that matches it.
	var held *engram.Demoted
	for i := range lt.held {
		if lt.held[i].Text == oldCity {
			held = &lt.held[i]
		}
	}
	if held == nil || !slices.Equal(held.Facts, []engram.Fact{omarCity("Lisbon")}) {
		t.Fatalf("the old statement went down without its facts: %+v", held)
	}
	h := load(t, b, "Which city does Omar live in? Lisbon flat bakery")
	if !strings.Contains(h, "Edinburgh") {
		t.Fatalf("the pool's newer value is not shown over the recalled one:\n%s", h)
	}
	x, _ := b.ExplainSelection()
	for _, u := range x.Units {
		if u.Text == oldCity && (u.Tier != engram.TierLongTerm || u.SupersededBy == "") {
			t.Errorf("recalled statement: tier %v, superseded by %q", u.Tier, u.SupersededBy)
		}
	}
}

// A question that shares no word with any statement of a slot still finds
// its newest one through the slot's own words ("Omar employer").
func TestFactsSlotWordsFindTheNewest(t *testing.T) {
	poached := "Omar: Guess who got poached? I'm with Larkspur Games now."
	k := &keyed{facts: map[string][]engram.Fact{poached: {{Subject: "Omar", Relation: "employer", Value: "Larkspur Games"}}}}
	const q = "Which company does Omar work for these days?"
	for _, with := range []bool{false, true} {
		opts := []Option{option.WithTokenBudget(100)}
		if with {
			opts = append(opts, option.WithFacts(k.extract))
		}
		b := newBuffer(t, opts...)
		save(t, b, poached, "Ana: Congratulations!")
		for i := range 30 {
			save(t, b, fmt.Sprintf("Omar: Training for the marathon, week %d, legs sore again.", i),
				fmt.Sprintf("Ana: Keep going, %d weeks done already!", i))
		}
		if got := strings.Contains(load(t, b, q), "Larkspur"); got != with {
			t.Errorf("with facts %v: the statement shown %v", with, got)
		}
	}
}

// flakyEmbedder is the default embedder whose failAt-th EmbedDocuments
// call (from 1) fails.
type flakyEmbedder struct {
	mu     sync.Mutex
	calls  int
	failAt int
	e      *embed.Embedder
}

func (f *flakyEmbedder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	f.mu.Lock()
	f.calls++
	fail := f.calls == f.failAt
	f.mu.Unlock()
	if fail {
		return nil, errors.New("embedder down")
	}
	return f.e.EmbedDocuments(ctx, texts)
}

func (f *flakyEmbedder) EmbedQuery(ctx context.Context, s string) ([]float32, error) {
	return f.e.EmbedQuery(ctx, s)
}

func TestFactsSlotEmbeddingFailureIsLogged(t *testing.T) {
	var logs bytes.Buffer
	def, err := embed.New()
	if err != nil {
		t.Fatal(err)
	}
	e := &flakyEmbedder{e: def}
	b := newBuffer(t, option.WithFacts(cityFacts().extract), option.WithEmbedder(e), option.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	e.failAt = 2 // the turn embeds, then the slot's words fail
	save(t, b, oldCity, "Ana: Nice.")
	if b.Len() != 2 || !strings.Contains(logs.String(), "fact slots not embedded") {
		t.Fatalf("%d units; log:\n%s", b.Len(), logs.String())
	}
	if h := load(t, b, "Which city does Omar live in?"); !strings.Contains(h, "Lisbon") {
		t.Fatalf("the statement is lost:\n%s", h)
	}
}

// An extractor that lists thousands of facts costs the save a bounded
// share of them, not time quadratic in their number.
func TestFactsManyAreCapped(t *testing.T) {
	ex := func(context.Context, engram.Unit, []engram.Fact) ([]engram.Fact, error) {
		fs := make([]engram.Fact, 20000)
		for i := range fs {
			fs[i] = engram.Fact{Subject: "Omar", Relation: fmt.Sprintf("hobby %d", i), Value: "chess"}
		}
		return fs, nil
	}
	b := newBuffer(t, option.WithFacts(ex))
	save(t, b, oldCity, "Ana: Lovely.")
	for _, u := range b.Units() {
		if len(u.Facts) == 0 || len(u.Facts) > facts.MaxPerUnit {
			t.Fatalf("%s states %d facts", u.ID, len(u.Facts))
		}
	}
}

// A fact in invalid UTF-8 is stored as a text is, with U+FFFD for bad
// bytes, so that the saved buffer restores.
func TestFactsInvalidUTF8Restore(t *testing.T) {
	ex := func(context.Context, engram.Unit, []engram.Fact) ([]engram.Fact, error) {
		return []engram.Fact{{Subject: "Omar\xff", Relation: "home city", Value: "Lis\xc0bon"}}, nil
	}
	b := newBuffer(t, option.WithFacts(ex))
	save(t, b, oldCity, "Ana: Lovely.")
	r, err := Restore(context.Background(), bytes.NewReader(saved(t, b)))
	if err != nil {
		t.Fatal(err)
	}
	if fs := r.Units()[0].Facts; len(fs) != 1 || fs[0].Value != "Lis\uFFFDbon" {
		t.Fatalf("restored facts %q", fs)
	}
}

// An extractor that writes to the known slots it was given changes
// nothing the next unit of the save is told.
func TestFactsExtractorCannotChangeKnown(t *testing.T) {
	var told []string
	ex := func(_ context.Context, u engram.Unit, known []engram.Fact) ([]engram.Fact, error) {
		for i := range known {
			told = append(told, known[i].Value)
			known[i].Value = "garbage"
		}
		if u.Text == oldCity {
			return []engram.Fact{omarCity("Lisbon")}, nil
		}
		return nil, nil
	}
	b := newBuffer(t, option.WithFacts(ex))
	save(t, b, oldCity, "Ana: Lovely.")
	save(t, b, "Omar: Any bakery tips?", "Ana: The one on the corner.")
	// The first reply is told what its question stated, then the second
	// save's two units the slot: each time Lisbon, whatever was written.
	if !slices.Equal(told, []string{"Lisbon", "Lisbon", "Lisbon"}) {
		t.Fatalf("the extractor was told %q", told)
	}
}

// A unit recalled from the long-term tier may be newer than a pool unit
// that states the same slot: a pinned old statement stays while the cap
// hands its successor down. The recalled newest value is not superseded
// by the older one.
func TestFactsRecalledNewerThanPinned(t *testing.T) {
	lt := &fakeTier{}
	b := newBuffer(t, option.WithTokenBudget(60), option.WithFacts(cityFacts().extract), WithLongTerm(lt), option.WithMaxUnits(20), quiet)
	save(t, b, oldCity, "Ana: Lovely.")
	if err := b.Pin("u0"); err != nil {
		t.Fatal(err)
	}
	save(t, b, newCity, "Ana: What a change!")
	for i := range 30 {
		save(t, b, fmt.Sprintf("Omar: Training for the marathon, week %d, legs sore again.", i),
			fmt.Sprintf("Ana: Keep going, %d weeks done already!", i))
	}
	load(t, b, "Which city does Omar live in? relocated Edinburgh")
	x, _ := b.ExplainSelection()
	recalled, newID, oldBy := false, "", ""
	for _, u := range x.Units {
		switch u.Text {
		case newCity:
			recalled, newID = u.Tier == engram.TierLongTerm, u.ID
			if u.SupersededBy != "" {
				t.Errorf("the newest value, recalled, is superseded by %s", u.SupersededBy)
			}
		case oldCity:
			oldBy = u.SupersededBy
		}
	}
	if !recalled {
		t.Fatal("the newer statement was not recalled from the tier")
	}
	// The pinned old value in the pool is out of date by the recalled one.
	if oldBy != newID {
		t.Errorf("the pinned old value is superseded by %q, want the recalled %q", oldBy, newID)
	}
}

// Two units recalled from the long-term tier that give one slot two values:
// the older is superseded by the newer, as in the pool.
func TestFactsRecalledSupersedeEachOther(t *testing.T) {
	now := time.Now()
	lt := &fakeTier{held: []engram.Demoted{
		{Unit: engram.Unit{Role: engram.RoleHuman, Text: oldCity, Time: now.Add(-time.Hour), Facts: []engram.Fact{omarCity("Lisbon")}}},
		{Unit: engram.Unit{Role: engram.RoleHuman, Text: newCity, Time: now, Facts: []engram.Fact{omarCity("Edinburgh")}}},
	}}
	b := newBuffer(t, option.WithTokenBudget(60), option.WithFacts(cityFacts().extract), WithLongTerm(lt), quiet)
	save(t, b, "Omar: Any bakery tips?", "Ana: The one on the corner.")
	load(t, b, "Which city does Omar live in?")
	x, _ := b.ExplainSelection()
	by := map[string]string{}
	id := map[string]string{}
	for _, u := range x.Units {
		by[u.Text], id[u.Text] = u.SupersededBy, u.ID
	}
	if id[oldCity] == "" || id[newCity] == "" {
		t.Fatalf("not both recalled: %v", id)
	}
	if by[oldCity] != id[newCity] || by[newCity] != "" {
		t.Fatalf("recalled old value superseded by %q, new by %q; want %q and none", by[oldCity], by[newCity], id[newCity])
	}
}

// Units the extractor read go down to the tier saying so, so that a tier
// with an extractor of its own does not ask the model again.
func TestFactsReadGoDownRead(t *testing.T) {
	lt := &fakeTier{}
	b := newBuffer(t, option.WithFacts(cityFacts().extract), WithLongTerm(lt), option.WithMaxUnits(10), option.WithLogger(slog.New(slog.DiscardHandler)))
	moved(t, b)
	if len(lt.held) == 0 {
		t.Fatal("nothing went down")
	}
	for _, d := range lt.held {
		if !d.FactsRead {
			t.Fatalf("%q went down unread", d.Text)
		}
	}
	// Without an extractor nothing was read.
	lt2 := &fakeTier{}
	b2 := newBuffer(t, WithLongTerm(lt2), option.WithMaxUnits(10), option.WithLogger(slog.New(slog.DiscardHandler)))
	moved(t, b2)
	for _, d := range lt2.held {
		if d.FactsRead {
			t.Fatalf("%q went down read, with no extractor", d.Text)
		}
	}
}
