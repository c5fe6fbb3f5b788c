package ratedistortion

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/internal/text"
	"github.com/engram-go/engram/option"
)

// count returns how many units of b hold text.
func count(b *Buffer, role engram.Role, text string) int {
	n := 0
	for _, u := range b.Units() {
		if u.Role == role && u.Text == text {
			n++
		}
	}
	return n
}

// TestExactRepeatMerges: a turn said again, white space aside, is not
// stored a second time; the turn it repeats moves to the end as if said
// now, keeping its id, so a load shows it once and a question-free load,
// which goes by recency, shows it.
func TestExactRepeatMerges(t *testing.T) {
	b := newBuffer(t, option.WithTokenBudget(200))
	const fact, ok = "My team meets on Mondays.", "ok"
	save(t, b, fact, ok)
	first := b.Units()[0].ID
	for i := range 200 {
		save(t, b, fmt.Sprintf("Chatter line %d about the weather and lunch %d.", i, i%7), ok)
		if i%20 == 19 {
			in := fact
			if i%40 == 39 {
				in = "  My team   meets on\nMondays. " // the same once white space is squashed
			}
			save(t, b, in, ok)
		}
	}
	if n := count(b, engram.RoleHuman, fact); n != 1 {
		t.Fatalf("%d units hold %q, want 1", n, fact)
	}
	if got, want := b.Len(), 2*201; got != want {
		t.Errorf("pool holds %d units, want %d: 200 turns of chatter and one of the fact", got, want)
	}
	us := b.Units()
	last := us[len(us)-2]
	if last.Text != fact || last.ID != first {
		t.Errorf("the repeated turn is %q (%s), want %q keeping its id %s at the end", last.Text, last.ID, fact, first)
	}
	for i := 1; i < len(us); i++ {
		if us[i].Seq <= us[i-1].Seq {
			t.Fatalf("units out of sequence at %d: %d after %d", i, us[i].Seq, us[i-1].Seq)
		}
	}
	for _, q := range []string{"When does my team meet?", ""} {
		h := load(t, b, q)
		if n := strings.Count(h, fact); n != 1 {
			t.Errorf("query %q: the history shows the fact %d times, want once:\n%s", q, n, h)
		}
	}
	// What a turn learned stays with it: a pin, for one.
	if err := b.Pin(first); err != nil {
		t.Fatal(err)
	}
	save(t, b, fact, ok)
	for _, u := range b.Units() {
		if u.ID == first && !u.Flags.Has(engram.FlagPinned) {
			t.Error("the repeated turn lost its pin")
		}
	}
}

// TestNotARepeat: only a human turn said again, role for role and word for
// word, merges: a different reply, another role, a reply alone, or a
// message with other words is stored as usual.
func TestNotARepeat(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t)
	save(t, b, "I like tea.", "Noted.")
	save(t, b, "I like tea.", "You said so before.") // the turn went otherwise
	if n := count(b, engram.RoleHuman, "I like tea."); n != 2 {
		t.Errorf("a repeat with another reply: %d units, want 2", n)
	}
	save(t, b, "Noted.", "I like tea.") // the same texts, other roles
	if n := count(b, engram.RoleAI, "I like tea."); n != 1 {
		t.Errorf("an AI line with a human's text: %d units, want 1", n)
	}
	save(t, b, "I like tea!", "Noted.")
	if n := count(b, engram.RoleHuman, "I like tea!"); n != 1 {
		t.Errorf("other words: %d units", n)
	}
	before := b.Len()
	if err := b.SaveContext(ctx, map[string]any{"input": ""}, map[string]any{"output": "You said so before."}); err != nil {
		t.Fatal(err)
	}
	if b.Len() != before+1 {
		t.Errorf("a reply alone was not stored: %d units, want %d", b.Len(), before+1)
	}
	// The latest turn with a message decides: it went with "You said so
	// before.", so a repeat of the first turn is a new turn.
	save(t, b, "I like tea.", "Noted.")
	if n := count(b, engram.RoleHuman, "I like tea."); n != 3 {
		t.Errorf("%d units hold the message, want 3", n)
	}
	// Said again exactly as the latest, it merges.
	save(t, b, "I like tea.", "Noted.")
	if n := count(b, engram.RoleHuman, "I like tea."); n != 3 {
		t.Errorf("%d units hold the message, want 3", n)
	}
}

// TestRepeatAwaitingItsReply: a message said again alone moves its turn to
// the end, and the reply that follows joins it.
func TestRepeatAwaitingItsReply(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t)
	human := func(s string) {
		t.Helper()
		if err := b.SaveContext(ctx, map[string]any{"input": s}, map[string]any{"output": ""}); err != nil {
			t.Fatal(err)
		}
	}
	human("Remind me about the dentist.")
	save(t, b, "Something else.", "Sure.")
	human("Remind me about the dentist.")
	if err := b.SaveContext(ctx, map[string]any{"input": ""}, map[string]any{"output": "On Friday."}); err != nil {
		t.Fatal(err)
	}
	us := b.Units()
	if len(us) != 4 {
		t.Fatalf("%d units, want 4", len(us))
	}
	if us[2].Text != "Remind me about the dentist." || us[3].Text != "On Friday." || us[2].Group != us[3].Group {
		t.Errorf("the repeated message and its reply are not one turn at the end: %+v", us[2:])
	}
}

// TestRepeatSurvivesSave: a buffer whose turns moved saves and restores,
// and a repeat after restoring still merges.
func TestRepeatSurvivesSave(t *testing.T) {
	b := newBuffer(t, option.WithTokenBudget(200))
	save(t, b, "My team meets on Mondays.", "ok")
	save(t, b, "I had soup.", "ok")
	save(t, b, "My team meets on Mondays.", "ok")
	c := restored(t, saved(t, b))
	if got, want := wall(c.Units()), wall(b.Units()); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("restored units\n%v\nwant\n%v", got, want)
	}
	save(t, c, "I had soup.", "ok")
	if n := count(c, engram.RoleHuman, "I had soup."); n != 1 || c.Len() != 4 {
		t.Errorf("after restoring, a repeat gave %d copies and %d units, want 1 and 4", n, c.Len())
	}
	if _, err := Restore(context.Background(), strings.NewReader(string(saved(t, c)))); err != nil {
		t.Fatal(err)
	}
}

func TestSameSquashed(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"a b", "a b", true},
		{"  a \t b\n", "a b", true},
		{"a\u00a0b", "a b", true},
		{"ab", "a b", false},
		{"a b", "a bc", false},
		{"a b ", "a b c", false},
		{"", "  ", true},
		{"é x", "é  x", true},
		{"a", "", false},
	} {
		if got := sameSquashed(tt.a, tt.b); got != tt.want || sameSquashed(tt.b, tt.a) != tt.want {
			t.Errorf("sameSquashed(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestRepeatRenumbersIndex: a turn said again moves to the end of the
// pool, and the lexical index is renumbered to match, not rebuilt from
// every unit's text: it scores as an index built afresh does.
func TestRepeatRenumbersIndex(t *testing.T) {
	b := newBuffer(t, option.WithTokenBudget(200))
	save(t, b, "My team meets on Mondays.", "Noted.")
	for i := range 50 {
		save(t, b, fmt.Sprintf("Filler %d about the weather.", i), "OK.")
	}
	save(t, b, "My team meets on Mondays.", "Noted.")
	b.mu.Lock()
	kept := b.index
	b.index = nil
	fresh := b.lexical()
	b.index = kept
	b.mu.Unlock()
	if kept == nil || kept.Len() != fresh.Len() {
		t.Fatalf("after a repeat the index holds %v documents, want %d", kept, fresh.Len())
	}
	for _, q := range []string{"When does my team meet?", "weather filler 7"} {
		terms := map[string]float64{}
		for _, w := range text.Terms(q) {
			terms[w] = 1
		}
		got, want := relevance.Score(relevance.Query{Text: q, Terms: terms}, kept, pool(b.pool)), relevance.Score(relevance.Query{Text: q, Terms: terms}, fresh, pool(b.pool))
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-9 {
				t.Fatalf("%q: unit %d scores %v, %v afresh", q, i, got[i], want[i])
			}
		}
	}
	if h := load(t, b, "When does my team meet?"); !strings.Contains(h, "My team meets on Mondays.") {
		t.Errorf("the repeated turn is not found:\n%s", h)
	}
}

// TestFormulaicReplyNeedsItsQuestion: a stock reply ("ok"), which other
// replies say word for word, is kept for its relevance alone, so that the
// budget goes to what says something; a reply of its own is kept as
// before, and a stock reply the question is about still is.
func TestFormulaicReplyNeedsItsQuestion(t *testing.T) {
	b := newBuffer(t, option.WithTokenBudget(120))
	for i := range 200 {
		save(t, b, fmt.Sprintf("Chatter line %d about the weather and lunch %d.", i, i%7), "ok")
	}
	save(t, b, "Anything else?", "Your dentist appointment moved to Thursday at 3 pm.")
	kept := func(query string) (stock, own, humans int) {
		t.Helper()
		load(t, b, query)
		x, ok := b.ExplainSelection()
		if !ok {
			t.Fatal("no selection to explain")
		}
		for _, u := range x.Units {
			switch {
			case !u.Kept:
			case u.Role == engram.RoleHuman:
				humans++
			case u.Text == "ok":
				stock++
			default:
				own++
			}
		}
		return stock, own, humans
	}
	stock, own, humans := kept("What is the capital of Peru?")
	if stock != 0 || own != 1 {
		t.Errorf("kept %d stock replies and %d of its own, want 0 and 1", stock, own)
	}
	// The same load with every "ok" valued as a reply of its own: stock
	// replies fill the budget, crowding out questions.
	for _, e := range b.pool {
		e.formulaic = false
	}
	stock2, _, humans2 := kept("What is the capital of Peru?")
	if stock2 == 0 || humans2 >= humans {
		t.Fatalf("valued as replies of their own, %d stock replies and %d questions were kept (%d questions without them): the test shows nothing", stock2, humans2, humans)
	}
	// A stock reply kept for its own relevance: the question is about it.
	b = newBuffer(t, option.WithTokenBudget(60))
	save(t, b, "Shall I book the table?", "Jawohl, mein Kapitän.")
	for i := range 40 {
		save(t, b, fmt.Sprintf("Chatter line %d about the weather and lunch %d.", i, i%7), "Jawohl, mein Kapitän.")
	}
	if h := load(t, b, "Who says Jawohl, mein Kapitän?"); !strings.Contains(h, "Jawohl") {
		t.Fatalf("a stock reply the question names was left out:\n%s", h)
	}
}

// TestFormulaicSurvivesRestoreAndCap: a restored buffer knows its stock
// replies again, and one whose copies the pool cap let go is a reply of
// its own once more.
func TestFormulaicSurvivesRestoreAndCap(t *testing.T) {
	b := newBuffer(t, option.WithMaxUnits(6))
	save(t, b, "First question?", "ok")
	save(t, b, "Second question?", "ok")
	stock := func(b *Buffer) (n int) {
		for _, e := range b.pool {
			if e.formulaic {
				n++
			}
		}
		return n
	}
	if n := stock(b); n != 2 {
		t.Fatalf("%d stock replies, want 2", n)
	}
	var buf bytes.Buffer
	if err := b.Save(&buf); err != nil {
		t.Fatal(err)
	}
	r, err := Restore(context.Background(), &buf, option.WithMaxUnits(6))
	if err != nil {
		t.Fatal(err)
	}
	if n := stock(r); n != 2 {
		t.Fatalf("restored: %d stock replies, want 2", n)
	}
	// Two more turns: the cap lets the first two go, and with them the
	// count of what the replies say.
	save(t, r, "Third question?", "Sure thing, see you at noon.")
	save(t, r, "Fourth question?", "ok")
	if r.Len() > 6 {
		t.Fatalf("pool holds %d units over its cap of 6", r.Len())
	}
	var oks []bool
	for _, e := range r.pool {
		if e.unit.Text == "ok" {
			oks = append(oks, e.formulaic)
		}
	}
	if got := r.replies[squashedHash("ok")].n; got != len(oks) {
		t.Fatalf("the pool holds %d stock replies and counts %d", len(oks), got)
	}
}

// TestFormulaicSameAfterRestore: a stock reply whose copies the cap let go
// is a reply of its own again, in the buffer and in its restored copy
// alike, so that both load the same.
func TestFormulaicSameAfterRestore(t *testing.T) {
	opts := []Option{option.WithTokenBudget(10), option.WithMaxUnits(10)}
	b := newBuffer(t, opts...)
	save(t, b, "hello there", "ok")
	for i := range 4 {
		save(t, b, fmt.Sprintf("I planted %d tulips in the garden today", i+3), fmt.Sprintf("Lovely, %d tulips will look great", i+3))
	}
	save(t, b, "thanks for the chat", "ok") // the cap lets the first "ok" go
	var buf bytes.Buffer
	if err := b.Save(&buf); err != nil {
		t.Fatal(err)
	}
	r, err := Restore(context.Background(), &buf, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"", "tulips"} {
		if h1, h2 := load(t, b, q), load(t, r, q); h1 != h2 {
			t.Errorf("query %q: before Save\n%s\nafter Restore\n%s", q, h1, h2)
		}
	}
}
