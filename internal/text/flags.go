package text

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engram-go/engram"
)

// Flags returns what s mentions that is costly to forget: a directive to
// remember, proper names, numbers, dates. It never sets FlagPinned.
func Flags(s string) engram.Flags { return FlagsIn(s, Split(s)) }

// FlagsIn is [Flags] of s, whose words are already split (Split(s)).
func FlagsIn(s string, words []Word) engram.Flags {
	var f engram.Flags
	if hasClockTime(s) {
		f |= engram.FlagDate | engram.FlagNumber
	}
	for i, w := range words {
		switch {
		case dateWords[w.Norm] && (!ambiguousMonths[w.Norm] || monthAt(words, i)):
			f |= engram.FlagDate
		case hasDigit(w.Norm):
			f |= engram.FlagNumber
			if looksLikeDate(w.Norm) {
				f |= engram.FlagDate
			}
		case numberWords[w.Norm]:
			f |= engram.FlagNumber
		case !w.SentenceStart && isCapitalised(w.Raw) && !IsStop(w.Norm):
			f |= engram.FlagName
		}
		if directiveAt(words, i) {
			f |= engram.FlagDirective
		}
	}
	return f
}

// directiveAt reports whether a request to remember starts at words[i]:
// "remember that", "don't forget", "note that", "keep in mind", "for future reference".
func directiveAt(ws []Word, i int) bool {
	next := func(k int) string {
		if i+k < len(ws) {
			return ws[i+k].Norm
		}
		return ""
	}
	prev := ""
	if i > 0 {
		prev = ws[i-1].Norm
	}
	switch ws[i].Norm {
	case "remember", "memorize", "memorise":
		// "please remember", "remember that", a sentence-initial imperative;
		// not "I remember that day", "I can't remember this", "Remember when…?".
		switch {
		case prev == "please" || prev == "to" || prev == "always":
			return true
		case recalling[prev] || next(1) == "when":
			return false
		}
		return ws[i].SentenceStart || next(1) == "that" || next(1) == "this"
	case "don't", "don’t", "do":
		// "don't forget", "please do not forget"; not "I don't forget names".
		if recalling[prev] {
			return false
		}
		return next(1) == "forget" && ws[i].Norm != "do" || (next(1) == "not" && next(2) == "forget")
	case "note":
		return next(1) == "that" || next(1) == "this"
	case "keep", "bear":
		return next(1) == "in" && next(2) == "mind"
	case "future":
		return next(1) == "reference"
	}
	return false
}

// recalling are the words before "remember" or "don't forget" that make
// them a statement about memory, not a request.
var recalling = setOf("i", "we", "they", "he", "she", "can't", "can’t", "cannot", "couldn't",
	"couldn’t", "don't", "don’t", "didn't", "didn’t", "not", "never", "still", "barely", "hardly", "vaguely")

func isCapitalised(raw string) bool {
	r, _ := utf8.DecodeRuneInString(raw)
	if !unicode.IsUpper(r) {
		return false
	}
	// "I", "OK", "TV": all-caps short words are not names.
	return len(raw) > 1 && strings.ToUpper(raw) != raw
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

// looksLikeDate accepts years (1900–2099), ISO dates ("2024-05-03"),
// ordinals ("3rd") and hours ("7pm"); not "20kg".
func looksLikeDate(w string) bool {
	if len(w) == 4 && allDigits(w) && (strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) {
		return true
	}
	if len(w) == 10 && w[4] == '-' && w[7] == '-' && allDigits(w[:4]+w[5:7]+w[8:]) {
		return true
	}
	for _, suf := range [...]string{"st", "nd", "rd", "th", "am", "pm"} {
		if strings.HasSuffix(w, suf) && len(w) > len(suf) && isDigit(w[len(w)-len(suf)-1]) {
			return true
		}
	}
	return false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// hasClockTime reports whether s holds a time of day such as "14:30" or
// "9:05" — one or two digits, a colon, two digits, with neither a digit
// nor a colon on either side — which Split cuts at the colon. It reads
// the bytes around each colon: every turn of a transcript ("Name: …")
// has one, and a regular expression over the whole turn cost a tenth of
// a save.
func hasClockTime(s string) bool {
	for at := 0; ; {
		c := strings.IndexByte(s[at:], ':')
		if c < 0 {
			return false
		}
		i := at + c
		at = i + 1
		j := i
		for j > 0 && isDigit(s[j-1]) {
			j--
		}
		if i-j < 1 || i-j > 2 || j > 0 && s[j-1] == ':' {
			continue
		}
		k := i + 1
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		if k-(i+1) == 2 && (k == len(s) || s[k] != ':') {
			return true
		}
	}
}

// ambiguousMonths are months that are also common words ("you may", "a
// march"): dates only when capitalised mid-sentence or next to a number.
var ambiguousMonths = setOf("may", "march")

func monthAt(ws []Word, i int) bool {
	if !ws[i].SentenceStart && isCapitalised(ws[i].Raw) {
		return true
	}
	return i > 0 && hasDigit(ws[i-1].Norm) || i+1 < len(ws) && hasDigit(ws[i+1].Norm)
}

var dateWords = setOf("january", "february", "march", "april", "may", "june", "july", "august",
	"september", "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul",
	"aug", "sep", "sept", "oct", "nov", "dec", "monday", "tuesday", "wednesday", "thursday",
	"friday", "saturday", "sunday", "yesterday", "today", "tomorrow", "tonight", "weekend",
	"week", "month", "year", "morning", "evening", "afternoon", "birthday", "anniversary",
	"ago", "last", "next")

var numberWords = setOf("one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
	"ten", "eleven", "twelve", "twenty", "thirty", "forty", "fifty", "hundred", "thousand",
	"million", "dozen", "half", "twice", "first", "second", "third")

func setOf(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}
