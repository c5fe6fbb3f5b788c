package main

import "testing"

// TestBestThreshold holds relatedWords between what answers a question
// worded away from it and what only resembles the question.
func TestBestThreshold(t *testing.T) {
	for _, tt := range []struct {
		question, line string
		about          bool
	}{
		{"Who is my physician?", "My doctor is Dr Patel.", true},
		{"What do I drive?", "My car is a blue Toyota Corolla.", true},
		{"Which instrument am I studying?", "I am learning to play the cello.", true},
		{"What is my job?", "I work as a marine biologist at the aquarium.", true},
		{"Who am I married to?", "My husband is called Tom.", true},
		{"What sport does my boy do?", "Our son plays football every Saturday.", true},
		{"What is my job?", "My printer keeps jamming.", false},
		{"What is the wifi password?", "My laptop battery is getting weak.", false},
		{"When does my flight to Oslo leave?", "The train was late again this morning.", false},
		{"Where does my sister live?", "I might repaint the kitchen next month.", false},
		{"Where does my sister live?", "I'm reading a novel about a lighthouse keeper.", false},
		{"Which country am I from?", "My houseplants are growing like mad.", false},
		{"When is my dentist appointment?", "The neighbours are having a party tonight.", false},
		{"What is the wifi password?", "I had pasta for lunch today.", false},
	} {
		m := wordsMeet(tt.question, tt.line)
		if _, ok := best(tt.question, []string{tt.line}); ok != tt.about {
			t.Errorf("%q about %q: %v (wordsMeet %.2f, threshold %.2f), want %v", tt.line, tt.question, ok, m, relatedWords, tt.about)
		}
		t.Logf("%.2f %s / %s", m, tt.question, tt.line)
	}
}

func TestBestOfNone(t *testing.T) {
	if _, ok := best("What is my job?", nil); ok {
		t.Error("best of no lines found one")
	}
}

func TestWordsMeetUnknownWords(t *testing.T) {
	if m := wordsMeet("Is it kiwi-7731?", "The wifi password is kiwi-7731."); m != 1 {
		t.Errorf("a word GloVe lacks, said again: wordsMeet %.2f, want 1", m)
	}
	if m := wordsMeet("Is it kiwi-7731?", "The wifi password is plum-2210."); m >= relatedWords {
		t.Errorf("a word GloVe lacks, not said: wordsMeet %.2f, want below %.2f", m, relatedWords)
	}
}
