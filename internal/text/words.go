package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Word is one word of a text, as written and as compared.
type Word struct {
	// Raw is the word as written, without surrounding punctuation.
	Raw string
	// Norm is the lower-cased word.
	Norm string
	// SentenceStart is true for the first word of a sentence.
	SentenceStart bool
}

// Split returns the words of s: runs of letters and digits, with inner
// apostrophes, hyphens and decimal points kept ("don't", "x-ray", "3.5").
// Invalid UTF-8 is treated as a separator.
func Split(s string) []Word {
	// A word of English is about six bytes with its space: room for the
	// words at once, not a slice grown (and copied) word by word, which
	// was the most memory a save took.
	out := make([]Word, 0, min(len(s)/6+1, 1024))
	start := -1
	sentence := true
	flush := func(end int) {
		if start < 0 {
			return
		}
		raw := s[start:end]
		out = append(out, Word{Raw: raw, Norm: strings.ToLower(raw), SentenceStart: sentence})
		sentence = false
		start = -1
	}
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf && (c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '0' && c <= '9') {
			if start < 0 { // an ASCII letter or digit: what the switch below finds, without decoding
				start = i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if start < 0 {
				start = i
			}
		case start >= 0 && (unicode.Is(unicode.Mark, r) || (r == '\u200c' || r == '\u200d') && joins(s, i+size)):
			// a combining mark (a vowel sign, a decomposed accent) or a
			// zero-width joiner between letters belongs to the word
		case start >= 0 && (r == '\'' || r == '’' || r == '-' || r == '.') && joins(s, i+size):
			// inner punctuation: keep going
		default:
			flush(i)
			if r == '.' || r == '!' || r == '?' || r == '\n' {
				sentence = true
			}
		}
		i += size
	}
	flush(len(s))
	return out
}

// joins reports whether the rune at i is a letter or digit, so that the
// punctuation before it sits inside a word.
func joins(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Terms returns the stemmed content words of s, stop words removed, in order.
func Terms(s string) []string { return TermsIn(Split(s)) }

// TermsIn is [Terms] of a text already split: one split serves all a
// text's analyses.
func TermsIn(ws []Word) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		n := strings.ReplaceAll(w.Norm, "’", "'")
		if strings.HasSuffix(n, "n't") {
			n = n[:len(n)-3] // "isn't" → "is", "can't" → "ca"
		} else if i := strings.IndexByte(n, '\''); i > 0 {
			n = n[:i] // possessives and contractions: "dana's" → "dana"
		}
		if IsStop(n) {
			continue
		}
		out = append(out, Stem(n))
	}
	return out
}

// Sentences splits s after '.', '!', '?' and newlines, trimming space.
func Sentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '.' && c != '!' && c != '?' && c != '\n' {
			continue
		}
		// A '.' between digits is a decimal point, not an end.
		if c == '.' && i > 0 && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]) {
			continue
		}
		for i+1 < len(s) && (s[i+1] == '.' || s[i+1] == '!' || s[i+1] == '?') {
			i++
		}
		if t := strings.TrimSpace(s[start : i+1]); t != "" {
			out = append(out, t)
		}
		start = i + 1
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
