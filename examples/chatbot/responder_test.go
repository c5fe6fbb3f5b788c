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
