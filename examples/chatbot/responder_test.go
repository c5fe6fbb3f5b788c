package main

import (
	"context"
	"strings"
	"testing"

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
			if got := answer(prompt); got != tt.want {
				t.Errorf("answer = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLocalModelGenerates(t *testing.T) {
	got, err := llms.GenerateFromSinglePrompt(context.Background(), localModel{},
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
