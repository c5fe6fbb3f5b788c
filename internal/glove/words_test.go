package glove

import (
	"slices"
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // tokens joined by spaces
	}{
		{"", ""},
		{"  ...!?  ", ""},
		{"Hello, World!", "hello world"},
		{"I'm sure", "i 'm sure"},
		{"don't can't won't", "do n't ca n't wo n't"},
		{"Caroline's dog", "caroline 's dog"},
		{"we'll, you're, they've, she'd", "we 'll you 're they 've she 'd"},
		{"I don’t know", "i do n't know"}, // typographic apostrophe
		{"a well-known baker", "a well-known baker"},
		{"sourdough-baking weekend", "sourdough baking weekend"},
		{"mother-in-law's car", "mother-in-law 's car"},
		{"'quoted' words", "quoted words"},
		{"the dogs' bowls", "the dogs bowls"},
		{"O'Neill", "o neill"},
		{"--dash-- -x-", "dash x"},
		{"Café ÉCOLE naïve", "café école naïve"},
		{"room 101, 3.5 hours", "room 101 3 5 hours"},
		{"email@example.com", "email example com"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got := Words(tc.in)
			var want []string
			if tc.want != "" {
				want = strings.Fields(tc.want)
			}
			if !slices.Equal(got, want) {
				t.Errorf("Words(%q) = %q, want %q", tc.in, got, want)
			}
		})
	}
}

// Every token Words makes of a known word is the word itself.
func TestWordsOfTableWords(t *testing.T) {
	n := 0
	for _, w := range rowWords(load()) {
		if got := Words(w); len(got) != 1 || got[0] != w {
			t.Errorf("Words(%q) = %q", w, got)
			if n++; n > 10 {
				return
			}
		}
	}
}

func FuzzWords(f *testing.F) {
	for _, s := range []string{"I'm sure Caroline's well-known dog", "''--''", "ÉCOLE’s", "a\xffb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range Words(s) {
			if w == "" || w != strings.ToLower(w) || strings.Trim(w, "'-") == "" {
				t.Errorf("Words(%q) has token %q", s, w)
			}
			if strings.HasPrefix(w, "-") || strings.HasSuffix(w, "-") {
				t.Errorf("Words(%q) has token %q", s, w)
			}
		}
	})
}
