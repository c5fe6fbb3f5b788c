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

// TestAsksFor: the question's words say what form the answer takes, and
// only "when", "how old/many/much/far/long/often", "who", "where" and
// "called" or "name" say it.
func TestAsksFor(t *testing.T) {
	for _, tt := range []struct {
		question string
		want     answerKind
	}{
		{"When did we wed?", dateAnswer},
		{"So when is the party", dateAnswer},
		{"How old will granny be?", numberAnswer},
		{"How far do I jog?", numberAnswer},
		{"How do I reach the owner of my flat?", anyAnswer},
		{"Who is my counsellor?", nameAnswer},
		{"Whose novels do I like most?", nameAnswer},
		{"Where are my backup spectacles?", placeAnswer},
		{"What is our pet called?", nameAnswer},
		{"What's my dentist's name?", nameAnswer},
		{"What do I do for a living?", anyAnswer},
	} {
		if got := asksFor(tt.question); got != tt.want {
			t.Errorf("asksFor(%q) = %d, want %d", tt.question, got, tt.want)
		}
	}
}

// TestHolds: a line holds a date when it names one, not when it only
// gestures at time; a number when it has one, "one" aside; a name when a
// word inside it is capitalised.
func TestHolds(t *testing.T) {
	for _, tt := range []struct {
		k    answerKind
		line string
		want bool
	}{
		{dateAnswer, "Our wedding anniversary is on the 3rd of October.", true},
		{dateAnswer, "I'm flying to Nairobi on the ninth of June.", true},
		{dateAnswer, "I take my tablets every morning at seven.", true},
		{dateAnswer, "I have a spin class every Wednesday evening.", true},
		{dateAnswer, "The kids drew pictures all morning.", false},
		{dateAnswer, "I'd love to see Tokyo one day.", false},
		{dateAnswer, "You may be right about last week.", false},
		{dateAnswer, "My mother-in-law is visiting in May.", true},
		{numberAnswer, "Our twins turn seven in August.", true},
		{numberAnswer, "I run 5 km on Tuesdays.", true},
		{numberAnswer, "I found my old diary from school.", false},
		{numberAnswer, "The old one broke.", false},
		{nameAnswer, "My therapist's name is Dr Huang.", true},
		{nameAnswer, "My friend sees a counsellor on Wednesdays.", false},
		{nameAnswer, "I had pasta for lunch.", false},
		{placeAnswer, "I keep my spare glasses in the blue drawer of the hallway cabinet.", true},
		{placeAnswer, "We rent a small cottage near Bergen every summer.", true},
		{placeAnswer, "My best friend Hannah moved to Vancouver last year.", true},
		{placeAnswer, "I was born in Montreal.", true},
		{placeAnswer, "I sent a birthday card to my aunt.", false},
		{placeAnswer, "My grandmother turns ninety in August.", false},
		{placeAnswer, "I take my tablets every morning at seven.", false},
		{placeAnswer, "I stayed up late in the evening.", false},
		{placeAnswer, "I think I need new glasses.", false},
		{anyAnswer, "My bike lock code is 4817.", false},
	} {
		if got := holds(tt.k, tt.line); got != tt.want {
			t.Errorf("holds(%d, %q) = %v, want %v", tt.k, tt.line, got, tt.want)
		}
	}
}
