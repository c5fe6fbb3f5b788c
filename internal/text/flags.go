package text

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engram-go/engram"
)

// Flags returns what s mentions that is costly to forget: a directive to
// remember, proper names, numbers, dates. It never sets FlagPinned.
func Flags(s string) engram.Flags {
	var f engram.Flags
	words := Split(s)
	for i, w := range words {
		switch {
		case dateWords[w.Norm]:
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
	switch ws[i].Norm {
	case "remember", "memorize", "memorise":
		prev := ""
		if i > 0 {
			prev = ws[i-1].Norm
		}
		// "please remember", "remember that", sentence-initial imperative; not "I remember when".
		return ws[i].SentenceStart || prev == "please" || prev == "to" || prev == "always" || next(1) == "that" || next(1) == "this"
	case "don't", "don’t", "do":
		return next(1) == "forget" || (next(1) == "not" && next(2) == "forget")
	case "note":
		return next(1) == "that" || next(1) == "this"
	case "keep", "bear":
		return next(1) == "in" && next(2) == "mind"
	case "future":
		return next(1) == "reference"
	}
	return false
}

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

// looksLikeDate accepts years (1900–2099), ordinals ("3rd") and clock times.
func looksLikeDate(w string) bool {
	if len(w) == 4 && (strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) && !strings.ContainsAny(w, ".-") {
		return true
	}
	for _, suf := range [...]string{"st", "nd", "rd", "th", "am", "pm"} {
		if strings.HasSuffix(w, suf) && len(w) > len(suf) && isDigit(w[len(w)-len(suf)-1]) {
			return true
		}
	}
	return false
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
