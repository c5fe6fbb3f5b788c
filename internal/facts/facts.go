package facts

import (
	"strings"
	"unicode"

	"github.com/engram-go/engram/internal/relevance"
)

// Analysis is what a turn's text says of its place among other turns.
type Analysis struct {
	// Speaker is the stemmed name a "Name: text" turn opens with
	// (relevance.SpeakerOf), "" if none.
	Speaker string
	// Corrects reports that the turn takes back what was just said: "No,
	// I said Tuesday", "Sorry, I meant 555-0118", "Correction: it's at
	// 4", "it's Tuesday, not Monday".
	Corrects bool
	// Qualifies reports that the turn only makes sense with the one
	// before it: it opens with "but", "except", "although", "unless",
	// "apart from"… ("but not green apples").
	Qualifies bool
}

// Analyse analyses one turn's text.
func Analyse(text string) Analysis {
	a := Analysis{Speaker: relevance.SpeakerOf(text)}
	if notSpeakers[a.Speaker] {
		a.Speaker = "" // "Correction: it's Friday" names no speaker
	}
	body := text
	if a.Speaker != "" {
		if _, rest, ok := strings.Cut(text, ":"); ok {
			body = rest
		}
	}
	words := lowerWords(body, 8)
	a.Corrects = corrects(words, body)
	a.Qualifies = opensWith(words, qualifiers)
	return a
}

// notSpeakers are the words that open a turn with a colon without naming
// who speaks.
var notSpeakers = map[string]bool{"correction": true, "update": true, "note": true, "ps": true, "edit": true,
	"fyi": true, "reminder": true, "warning": true, "answer": true, "question": true, "sorry": true, "actually": true}

// Turn is Analyse for a turn said in role (its lower-case name, "human",
// "ai"…): a turn whose text names no speaker is its role's.
func Turn(text, role string) Analysis {
	a := Analyse(text)
	if a.Speaker == "" {
		a.Speaker = role
	}
	return a
}

// Reach is how many turns after a statement a correction may come and
// still take it back: the other speaker's reply may come between.
const Reach = 3

// Depends reports whether a turn (a), k turns after another (b), cannot be
// shown without it: it qualifies the turn just before it ("but not green
// apples") or, from the same speaker, corrects it within Reach ("no, I
// said Tuesday"). A memory keeps the two as one item, within Room.
func Depends(a, b Analysis, k int) bool {
	return a.Qualifies && k == 1 || a.Corrects && k <= Reach && a.Speaker == b.Speaker
}

// Room is the most tokens a turn (a) and those it depends on may cost
// together and still be kept as one, under budget: a correction stays
// with what it corrects while the two fit (shown alone, the statement
// would say the wrong value); a qualifying turn within half of it, so that
// a chain of "but"s leaves room and its first statement can still be shown.
func Room(a Analysis, budget int) int {
	if a.Corrects {
		return budget
	}
	return budget / 2
}

// qualifiers open a turn that narrows or takes exception to the one
// before it.
var qualifiers = [][]string{
	{"but"}, {"except"}, {"although"}, {"though"}, {"unless"}, {"however"},
	{"apart", "from"}, {"other", "than"}, {"only", "if"}, {"only", "when"},
	{"not", "the"}, {"not", "when"}, {"well", "not"}, {"well", "except"}, {"yes", "but"},
	{"yeah", "but"}, {"sure", "but"}, {"ok", "but"}, {"okay", "but"},
}

// correctionOpeners open a turn that takes back what was just said.
var correctionOpeners = [][]string{
	{"no", "i", "said"}, {"no", "i", "meant"}, {"no", "it's"}, {"no", "its"}, {"no", "it", "is"},
	{"sorry", "i", "meant"}, {"sorry", "typo"}, {"sorry", "i", "said"}, {"sorry", "it's"},
	{"i", "meant"}, {"correction"}, {"wait", "i", "gave"}, {"wait", "it's"},
	{"actually", "it's"}, {"actually", "it", "is"}, {"actually", "i", "said"}, {"actually", "i", "meant"},
	{"scratch", "that"}, {"my", "mistake"}, {"let", "me", "correct"},
	{"to", "correct"}, {"i", "got", "that", "wrong"}, {"i", "was", "wrong"},
}

// corrects reports whether a turn (its first words lower-cased, and its
// text) takes back what was just said.
func corrects(words []string, body string) bool {
	if opensWith(words, correctionOpeners) {
		return true
	}
	// "…, not Monday" / "…, not 555-0113." at the end: the value it
	// replaces, named to be taken back.
	l := asciiLower(body) // the same length as body, so its indices hold there
	for _, cue := range []string{", not ", " instead of ", " rather than "} {
		if i := strings.LastIndex(l, cue); i >= 0 && len(l)-i < 40 {
			rest := strings.TrimSpace(body[i+len(cue):])
			if rest != "" && (unicode.IsUpper(rune(rest[0])) || unicode.IsDigit(rune(rest[0]))) {
				return true
			}
		}
	}
	return false
}

// asciiLower lower-cases the ASCII letters of s, byte for byte.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// opensWith reports whether words start with one of the phrases.
func opensWith(words []string, phrases [][]string) bool {
	for _, p := range phrases {
		if len(p) > len(words) {
			continue
		}
		match := true
		for i, w := range p {
			if words[i] != w {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// lowerWords returns the first n words of s, lower-cased, punctuation
// trimmed, apostrophes kept ("it's").
func lowerWords(s string, n int) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == ',' || r == ';' || r == ':' || r == '!' || r == '.' || r == '—' || r == '(' || r == ')'
	}) {
		f = strings.ReplaceAll(strings.ToLower(strings.Trim(f, `"'“”‘’?`)), "’", "'")
		if f == "" {
			continue
		}
		out = append(out, f)
		if len(out) == n {
			break
		}
	}
	return out
}
