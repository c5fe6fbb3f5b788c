package updates

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/engram-go/engram/cmd/memeval/dataset"
)

func generate(t *testing.T, cfg Config) []Sample {
	t.Helper()
	ss, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

func TestDeterministic(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Conversations = 3
	a, b := generate(t, cfg), generate(t, cfg)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("equal configs gave different samples")
	}
	cfg.Seed++
	if c := generate(t, cfg); reflect.DeepEqual(a, c) {
		t.Fatal("another seed gave the same samples")
	}
}

// position returns each turn's index in replay order, by dia_id.
func position(s *dataset.Sample) map[string]int {
	at := make(map[string]int)
	for i, t := range s.Turns() {
		at[t.DiaID] = i
	}
	return at
}

// Every question's answer is its fact's last value, said after every
// earlier value, and each earlier value is listed as stale.
func TestCurrentIsLast(t *testing.T) {
	for _, s := range generate(t, DefaultConfig()) {
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		if len(s.Stale) != len(s.QA) {
			t.Fatalf("%s: %d stale lists for %d questions", s.ID, len(s.Stale), len(s.QA))
		}
		at := position(&s.Sample)
		for _, f := range s.Facts {
			if n := len(f.Values) - 1; n < 1 || n > 3 {
				t.Errorf("%s: %s %s changed %d times, want 1 to 3", s.ID, f.Subject, f.Relation, n)
			}
			for i, v := range f.Values {
				turn, ok := s.Turn(v.DiaID)
				if !ok || !strings.Contains(turn.Text, v.Value) {
					t.Errorf("%s: %s %s value %q: turn %q = %q", s.ID, f.Subject, f.Relation, v.Value, v.DiaID, turn.Text)
				}
				if i > 0 && at[v.DiaID] <= at[f.Values[i-1].DiaID] {
					t.Errorf("%s: %s %s: value %d said before value %d", s.ID, f.Subject, f.Relation, i, i-1)
				}
				if slices.Index(f.Values[:i], Statement{Value: v.Value, DiaID: f.Values[0].DiaID}) >= 0 || (i > 0 && v.Value == f.Values[i-1].Value) {
					t.Errorf("%s: %s %s repeats %q", s.ID, f.Subject, f.Relation, v.Value)
				}
			}
		}
		single := 0
		for i, qa := range s.QA {
			cur := qa.Evidence[0]
			f := factOf(s, cur)
			if f == nil || f.Current().DiaID != cur {
				t.Fatalf("%s: %q: evidence %s is no fact's current value", s.ID, qa.Question, cur)
			}
			var want []string
			for _, v := range f.Values[:len(f.Values)-1] {
				want = append(want, v.DiaID)
			}
			if !slices.Equal(s.Stale[i], want) {
				t.Errorf("%s: %q: stale %v, want %v", s.ID, qa.Question, s.Stale[i], want)
			}
			if qa.Category == dataset.SingleHop {
				single++
				if qa.Answer != f.Current().Value {
					t.Errorf("%s: %q: answer %q, current value %q", s.ID, qa.Question, qa.Answer, f.Current().Value)
				}
			}
		}
		if single != len(s.Facts) {
			t.Errorf("%s: %d single-hop questions for %d facts", s.ID, single, len(s.Facts))
		}
	}
}

func factOf(s Sample, diaID string) *Fact {
	for i, f := range s.Facts {
		for _, v := range f.Values {
			if v.DiaID == diaID {
				return &s.Facts[i]
			}
		}
	}
	return nil
}

// A multi-hop question's link follows the value it depends on (except the
// sibling's, which does not change with the employer), and its answer
// derives from the current value.
func TestMultiHopResolves(t *testing.T) {
	for _, s := range generate(t, DefaultConfig()) {
		at := position(&s.Sample)
		n := 0
		for _, qa := range s.QA {
			if qa.Category != dataset.MultiHop {
				continue
			}
			n++
			if len(qa.Evidence) != 2 || len(s.Evidence(qa)) != 2 {
				t.Fatalf("%s: %q: evidence %v", s.ID, qa.Question, qa.Evidence)
			}
			f := factOf(s, qa.Evidence[0])
			if f.Relation != KinCompany && at[qa.Evidence[1]] < at[qa.Evidence[0]] {
				t.Errorf("%s: %q: link %s said before the value %s it rests on", s.ID, qa.Question, qa.Evidence[1], qa.Evidence[0])
			}
			if f.Relation == KinCompany && at[qa.Evidence[1]] < at[f.Values[0].DiaID] {
				t.Errorf("%s: %q: the sibling is named in the link before being introduced", s.ID, qa.Question)
			}
			if !strings.HasPrefix(f.Current().Value, qa.Answer) {
				t.Errorf("%s: %q: answer %q does not derive from %q", s.ID, qa.Question, qa.Answer, f.Current().Value)
			}
			link, _ := s.Turn(qa.Evidence[1])
			for _, v := range f.Values {
				if strings.Contains(link.Text, v.Value) {
					t.Errorf("%s: link %q names the value %q", s.ID, link.Text, v.Value)
				}
			}
		}
		if n != len(links)+1 {
			t.Errorf("%s: %d multi-hop questions, want %d", s.ID, n, len(links)+1)
		}
	}
}

// A change is worded apart from the statement it replaces: no change or
// correction template is a statement template.
func TestChangesParaphrase(t *testing.T) {
	for _, rel := range relations {
		for _, c := range append(slices.Clone(rel.change), rel.correct...) {
			if slices.Contains(rel.state, c) {
				t.Errorf("%s: %q both states and changes", rel.rel, c)
			}
		}
		if len(rel.state) < 3 || len(rel.change) < 3 || len(rel.ask) < 2 {
			t.Errorf("%s: %d statement, %d change, %d question templates", rel.rel, len(rel.state), len(rel.change), len(rel.ask))
		}
	}
	seen := map[Relation]bool{}
	for _, s := range generate(t, DefaultConfig()) {
		for _, f := range s.Facts {
			first, _ := s.Turn(f.Values[0].DiaID)
			for _, v := range f.Values[1:] {
				turn, _ := s.Turn(v.DiaID)
				if strings.ReplaceAll(turn.Text, v.Value, "") == strings.ReplaceAll(first.Text, f.Values[0].Value, "") {
					t.Errorf("%s: change %q repeats %q", s.ID, turn.Text, first.Text)
				}
				if v.Correction {
					seen[f.Relation] = true
				}
			}
		}
	}
	if !seen[Phone] || !seen[Meeting] {
		t.Errorf("corrections seen for %v, want phone numbers and meetings", seen)
	}
}

// Real dialogue given as filler is what runs between statements.
func TestDialogueFiller(t *testing.T) {
	real := dataset.Sample{ID: "real", Sessions: []dataset.Session{{Index: 1, DateTime: "1:00 pm on 1 May, 2023", Turns: []dataset.Turn{
		{Speaker: "X", DiaID: "D1:1", Text: "The hike up the ridge was gorgeous."},
		{Speaker: "Y", DiaID: "D1:2", Text: "Did you bring the good camera?"},
		{Speaker: "X", DiaID: "D1:3", Text: "Of course, the light was perfect."},
	}}}}
	cfg := DefaultConfig()
	cfg.Conversations, cfg.Dialogue = 1, []dataset.Sample{real}
	s := generate(t, cfg)[0]
	n := 0
	for _, turn := range s.Turns() {
		if slices.ContainsFunc(real.Turns(), func(r dataset.Turn) bool { return r.Text == turn.Text }) {
			n++
		}
	}
	if want := 2 * cfg.Sessions * cfg.Filler; n != want {
		t.Fatalf("%d turns from the dialogue given, want %d", n, want)
	}
}

func TestBadConfig(t *testing.T) {
	for _, cfg := range []Config{{Conversations: 0, Sessions: 12}, {Conversations: 1, Sessions: 4}, {Conversations: 1, Sessions: 6, Filler: -1},
		{Conversations: 1, Sessions: 6, Dialogue: []dataset.Sample{{ID: "empty"}}}} {
		if _, err := Generate(cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: err = %v, want ErrConfig", cfg, err)
		}
	}
}
