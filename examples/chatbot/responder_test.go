package main

import (
	"context"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/tmc/langchaingo/llms"
)

func TestAnswer(t *testing.T) {
	const preamble = "The following is a friendly conversation between a human and an AI.\n\nCurrent conversation:\n"
	tests := []struct {
		name, history, input, want string
	}{
		{"quotes the best match", "Human: My sister Alice lives in Lisbon.\nAI: Noted.\nHuman: My dog is called Rex.\nAI: Noted.",
			"Where does my sister live?", `You told me: "My sister Alice lives in Lisbon."`},
		{"rarer words weigh more", "Human: My name is Dana.\nHuman: My dog's name is Rex.\nHuman: My dog sleeps a lot.",
			"What is my dog's name?", `You told me: "My dog's name is Rex."`},
		{"does not know", "Human: I had pasta for lunch.\nAI: Noted.", "What is the wifi password?", dontKnow},
		{"empty memory", "", "What is the wifi password?", dontKnow},
		{"statement", "Human: I had pasta.", "The wifi password is kiwi-7731.", "Noted."},
		{"questions are not facts", "Human: What is the wifi password?\nAI: " + dontKnow, "What is the wifi password?", dontKnow},
		{"unwraps its own quotes", `Human: Where is Alice?` + "\n" + `AI: You told me: "Alice is in Lisbon."`,
			"Where is Alice now?", `You told me: "Alice is in Lisbon."`},
		{"summary lines count", "system: Left out, in brief:\n- Human: The wifi password is kiwi-7731.",
			"What is the wifi password?", `You told me: "The wifi password is kiwi-7731."`},
		{"other roles", "system: The deploy key rotates monthly.", "When does the deploy key rotate?",
			`From memory: "The deploy key rotates monthly."`},
		// The job is found through what the words mean, not
		// through a word the question shares, and not in the printer.
		{"a paraphrase", "Human: I work as a marine biologist at the aquarium.\nAI: Noted.\nHuman: My printer keeps jamming.\nAI: Noted.",
			"What is my job?", `You told me: "I work as a marine biologist at the aquarium."`},
		{"work is not the printer", "Human: My printer keeps jamming.\nAI: Noted.\nHuman: I work as a marine biologist at the aquarium.\nAI: Noted.",
			"What do I do for work?", `You told me: "I work as a marine biologist at the aquarium."`},
		{"nothing relevant", "Human: My printer keeps jamming.\nAI: Noted.\nHuman: I had pasta for lunch today.\nAI: Noted.",
			"When does my flight to Oslo leave?", dontKnow},
		{"never the question itself", "Human: What is my job\nAI: " + dontKnow + "\nHuman: I had pasta for lunch today.",
			"What is my job", dontKnow},
		{"an exclamation is not a question", "Human: I had pasta.", "What a long week it has been.", noted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prompt := preamble + tt.history + "\nHuman: " + tt.input + "\nAI:"
			if got := (&localModel{}).answer(prompt); got != tt.want {
				t.Errorf("answer = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLocalModelGenerates(t *testing.T) {
	got, err := llms.GenerateFromSinglePrompt(context.Background(), &localModel{},
		"Human: The wifi password is kiwi-7731.\nAI: Noted.\nHuman: What is the wifi password?\nAI:")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "kiwi-7731") {
		t.Errorf("got %q, want the password quoted", got)
	}
}

func TestIsQuestion(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"Where does my sister live?", true},
		{"Is it raining?", true},
		{"what is the wifi password", true},
		{"Tell me the wifi password", true},
		{"What a long week it has been.", false},
		{"What a day!", false},
		{"How lovely.", false},
		{"My sister lives in Lisbon.", false},
		{"Remember that my dentist appointment is on Friday.", false},
		{"I wonder", false},
		{"What is the wifi password.", true},
		{"how many cats does Alice have", true},
		{"Remind me where I parked", true},
		{"What a long week it has been", false},
		{"When I was young I lived in Porto.", false},
		{"What you said was right.", false},
		{"How nice of you.", false},
		{"Why not!", false},
		{"What", false},
		{"Tell", false},
		{"Whatever you like.", false},
	} {
		if got := isQuestion(tt.s); got != tt.want {
			t.Errorf("isQuestion(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// TestAnswersWithTheMemorysPick: over a memory that explains its load, the
// stand-in quotes a unit the memory kept and found relevant, names it, and
// says it does not know only when the memory found nothing relevant; the
// failure it fixes: the memory kept "My job is marine biologist at the
// aquarium." at relevance 1.00 and the stand-in said it did not know.
func TestAnswersWithTheMemorysPick(t *testing.T) {
	const q = "What do I do for a living?"
	job := "My job is marine biologist at the aquarium."
	prompt := "Human: " + job + "\nAI: Noted.\nHuman: I had pasta for lunch today.\nAI: Noted.\nHuman: " + q + "\nAI:"
	report := engram.LoadReport{Query: q, Units: []engram.UnitReport{
		{ID: "u0", Role: engram.RoleHuman, Text: job, Kept: true, Relevance: 1},
		{ID: "u1", Role: engram.RoleAI, Text: noted, Kept: true, Relevance: 0.5},
		{ID: "u2", Role: engram.RoleHuman, Text: "I had pasta for lunch today.", Kept: true, Relevance: 0.2},
		{ID: "u3", Role: engram.RoleAI, Text: noted, Kept: true, Relevance: 0.1},
	}}
	m := &localModel{report: func() (engram.LoadReport, bool) { return report, true }}
	if a := m.answer(prompt); !strings.Contains(a, job) || !strings.Contains(a, "memory unit u0") {
		t.Errorf("answered %q, want the job quoted as memory unit u0", a)
	}
	if a := (&localModel{}).answer(prompt); a != dontKnow {
		t.Logf("(without the memory's report the stand-in's own ranking answers %q)", a)
	}
	// Nothing the memory kept is relevant: it does not know.
	none := report
	none.Units = nil
	for _, u := range report.Units {
		u.Relevance = 0
		none.Units = append(none.Units, u)
	}
	m.report = func() (engram.LoadReport, bool) { return none, true }
	if a := m.answer(prompt); a != dontKnow {
		t.Errorf("answered %q with nothing relevant kept, want %q", a, dontKnow)
	}
	// A report of another load is not used.
	other := report
	other.Query = "Where is my sister?"
	m.report = func() (engram.LoadReport, bool) { return other, true }
	if a := m.answer(prompt); strings.Contains(a, "memory unit") {
		t.Errorf("answered %q from the report of another question", a)
	}
	// Its own quotes, with what ranked them, count as what they quote.
	quotedAnswer := `You told me: "` + job + `" (memory unit u0, relevance 1.00, ranked 1 of the 2 relevant lines it kept)`
	p2 := "Human: What is my job?\nAI: " + quotedAnswer + "\nHuman: " + q + "\nAI:"
	r2 := engram.LoadReport{Query: q, Units: []engram.UnitReport{
		{ID: "u7", Role: engram.RoleAI, Text: quotedAnswer, Kept: true, Relevance: 0.8, Seq: 7},
	}}
	m.report = func() (engram.LoadReport, bool) { return r2, true }
	if a := m.answer(p2); !strings.HasPrefix(a, `You told me: "`+job+`" (memory unit u7`) {
		t.Errorf("answered %q, want the quote unwrapped", a)
	}
}

// TestTypedAnswerFirst: of the lines the memory kept, one that holds what
// the question asks for (an age for "How old …?") comes before small talk
// that shares the question's words; when none holds it, the words decide.
func TestTypedAnswerFirst(t *testing.T) {
	twins := "Our twins Ada and Ben turn seven in August."
	kids := "The kids drew pictures of dinosaurs all morning."
	for _, tt := range []struct{ question, want string }{
		{"How old are the kids going to be?", twins},
		{"What do the kids draw?", kids},
	} {
		report := engram.LoadReport{Query: tt.question, Units: []engram.UnitReport{
			{ID: "u0", Role: engram.RoleHuman, Text: twins, Kept: true, Relevance: 0.2, Seq: 0},
			{ID: "u2", Role: engram.RoleHuman, Text: kids, Kept: true, Relevance: 1, Seq: 2},
		}}
		m := &localModel{report: func() (engram.LoadReport, bool) { return report, true }}
		if a := m.answer("Human: " + tt.question + "\nAI:"); !strings.HasPrefix(a, `You told me: "`+tt.want+`"`) {
			t.Errorf("%q: answered %q, want %q", tt.question, a, tt.want)
		}
	}
}
