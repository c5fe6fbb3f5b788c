package text

import "strings"

// Stem reduces an English word to a crude stem so that inflected forms
// compare equal: "adopted", "adopting" and "adopts" all become "adopt";
// "named" and "name" become "nam"; "cities" and "city" become "citi". It is a
// light suffix stripper, not Porter's algorithm: it favours never merging
// unrelated words over merging every related pair. Words of three letters or
// fewer, and words with anything but a–z, are returned as they are.
func Stem(w string) string {
	if len(w) <= 3 || !isASCIIAlpha(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "i"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
	case strings.HasSuffix(w, "s"):
		w = w[:len(w)-1]
	}
	if strings.HasSuffix(w, "eed") {
		// "agreed" → "agree", but "breed", "need" and "speed" are words.
		if hasVowel(w[:len(w)-3]) {
			w = w[:len(w)-1]
		}
	} else {
		w = stripVerbSuffix(w)
	}
	if strings.HasSuffix(w, "y") && len(w) > 3 && !isVowel(w[len(w)-2]) {
		w = w[:len(w)-1] + "i"
	}
	if strings.HasSuffix(w, "e") && len(w) > 3 {
		w = w[:len(w)-1]
	}
	return w
}

func isASCIIAlpha(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

func isVowel(c byte) bool { return strings.IndexByte("aeiouy", c) >= 0 }

func hasVowel(w string) bool {
	for i := 0; i < len(w); i++ {
		if isVowel(w[i]) {
			return true
		}
	}
	return false
}

// stripVerbSuffix removes "-ing", "-ed" and their adverbs from w, undoing a
// doubled final consonant: "stopped" → "stop"; "ll", "ss", "zz" and vowels
// stay ("falling" → "fall", "seeing" → "see").
func stripVerbSuffix(w string) string {
	for _, suf := range [...]string{"ingly", "edly", "ing", "ed"} {
		if strings.HasSuffix(w, suf) && hasVowel(w[:len(w)-len(suf)]) && len(w)-len(suf) >= 3 {
			w = w[:len(w)-len(suf)]
			if n := len(w); n >= 2 && w[n-1] == w[n-2] && !strings.ContainsRune("lszaeiou", rune(w[n-1])) {
				w = w[:n-1]
			}
			return w
		}
	}
	return w
}
