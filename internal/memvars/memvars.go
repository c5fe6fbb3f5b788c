package memvars

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/engram-go/engram"
	"github.com/tmc/langchaingo/llms"
)

// ambiguous is the reason an input map with several keys and no input
// key set is refused, in langchaingo's buffers' words.
const ambiguous = "multiple keys and no input key set"

// inputKey is the one rule both memories resolve the input key by, on
// save and on load, as langchaingo's buffers do: key if set (it must be
// present), else the only key of m other than skip (the memory's own key).
// Several keys and no key set is ambiguous and an error: no conventional
// name ("input", "question") is picked, since a name picked on save could
// be missed on load. ok is false when m holds no key but skip.
func inputKey(m map[string]any, key, skip, option string) (k string, ok bool, err error) {
	if key != "" {
		if _, ok := m[key]; !ok {
			return "", false, fmt.Errorf("key %q missing (keys %q): %w", key, keys(m), engram.ErrInvalidInput)
		}
		return key, true, nil
	}
	var only []string
	for k := range m {
		if k != skip {
			only = append(only, k)
		}
	}
	switch len(only) {
	case 0:
		return "", false, nil
	case 1:
		return only[0], true, nil
	}
	what := ambiguous
	if option == "WithOutputKey" {
		what = "multiple keys and no output key set"
	}
	return "", false, fmt.Errorf("%s (keys %q): name one with %s: %w", what, keys(m), option, engram.ErrInvalidInput)
}

// keys returns m's keys, sorted, for an error message.
func keys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Input returns the human message of a save: the string under the input
// key (see [Query] for the rule, the same on save and on load). A nil or
// empty map, a missing or ambiguous key or a non-string value give an
// error wrapping [engram.ErrInvalidInput].
func Input(inputs map[string]any, key, skip string) (string, error) {
	if inputs == nil {
		return "", fmt.Errorf("nil map: %w", engram.ErrInvalidInput)
	}
	k, ok, err := inputKey(inputs, key, skip, "WithInputKey")
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("no keys: %w", engram.ErrInvalidInput)
	}
	return str(inputs, k)
}

// Output returns the AI message of a save: the string under key if set,
// else under the only key other than skip. With several keys and no key
// set it takes "output", where langchaingo's agent executor puts its answer
// beside "intermediateSteps" when asked to return its steps; without one
// it is ambiguous. A nil or empty map, a missing or ambiguous key or a
// non-string value give an error wrapping [engram.ErrInvalidInput].
func Output(outputs map[string]any, key, skip string) (string, error) {
	if outputs == nil {
		return "", fmt.Errorf("nil map: %w", engram.ErrInvalidInput)
	}
	k, ok, err := inputKey(outputs, key, skip, "WithOutputKey")
	if err != nil && key == "" {
		if _, has := outputs["output"]; has {
			k, ok, err = "output", true, nil
		}
	}
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("no keys: %w", engram.ErrInvalidInput)
	}
	return str(outputs, k)
}

// str returns the string m holds under k.
func str(m map[string]any, k string) (string, error) {
	s, ok := m[k].(string)
	if !ok {
		return "", fmt.Errorf("key %q holds %T, want string: %w", k, m[k], engram.ErrInvalidInput)
	}
	return s, nil
}

// Query returns the query of a load, by the rule a save finds its human
// message by, langchaingo's: inputs[key] if key is set, else the only key
// other than memoryKey. Several keys and no key set give an error ("multiple
// keys and no input key set"), as does a set key that is missing, both
// wrapping [engram.ErrInvalidInput], so that a load never silently runs
// without the question a save would have stored. No inputs (nil, empty, or
// only the memory's key) and a nil value are a load without a question,
// query ""; a non-string value is an error.
func Query(inputs map[string]any, key, memoryKey string) (string, error) {
	if len(inputs) == 0 {
		return "", nil
	}
	k, ok, err := inputKey(inputs, key, memoryKey, "WithInputKey")
	if err != nil || !ok {
		return "", err
	}
	if inputs[k] == nil {
		return "", nil
	}
	return str(inputs, k)
}

// VisiblePrefix reports whether p can start a rendered history line: the
// tokenizer never merges a line ending in "\n" with one that starts with a
// visible character, so a history's token count is the sum of its lines'.
func VisiblePrefix(p string) bool {
	r, _ := utf8.DecodeRuneInString(p)
	// Visible: a graphic character (a letter, mark, number, punctuation or
	// symbol; not a control or a format character such as U+200B or
	// U+FEFF) that is not a space; and nowhere a character the rendering
	// would have to escape or break the line at.
	return p != "" && utf8.ValidString(p) && unicode.IsGraphic(r) && !unicode.IsSpace(r) &&
		strings.IndexFunc(p, special) < 0
}

// Label returns the label a role's history lines start with: the human and
// AI prefixes a memory was given, "tool" for tool results, "system" for the
// rest. Tool calls are the AI's.
func Label(r engram.Role, human, ai string) string {
	switch r {
	case engram.RoleHuman:
		return human
	case engram.RoleAI, engram.RoleToolCall:
		return ai
	case engram.RoleToolResult:
		return "tool"
	default:
		return "system"
	}
}

// Step returns the role and the text a memory stores an observed step as,
// so that every backend renders it alike, under one label: a tool's result
// or failure is the tool's, its text already naming the call ("tool:
// calculator(2+2) → 4"); a tool call is the AI's and a message the human's;
// any other step is a system line that names its kind ("system: feedback:
// wrong date").
func Step(s engram.Step) (engram.Role, string) {
	switch s.Kind {
	case engram.StepMessage:
		return engram.RoleHuman, s.Text
	case engram.StepToolCall:
		return engram.RoleToolCall, s.Text
	case engram.StepToolResult, engram.StepToolError:
		return engram.RoleToolResult, s.Text
	}
	return engram.RoleSystem, s.Kind.String() + ": " + s.Text
}

// Clean returns a message's text as a memory stores it: invalid UTF-8
// replaced by U+FFFD rather than refused, and trailing white space dropped.
// A line's count is exact only if its text ends visibly: trailing spaces or
// a carriage return merge with the line's "\n" into fewer tokens than they
// make alone, so the last line of a history, which has no "\n", could cost
// more than it was counted.
func Clean(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strings.TrimRightFunc(s, unicode.IsSpace)
}

// Continuation is what follows each line break inside a rendered message:
// a newline and two spaces. A history line that starts without white space
// is therefore always the first line of exactly one message, and its label
// is that message's role; text a user pasted cannot start a line that reads
// as "AI: …".
const Continuation = "\n  "

// Line renders one message as a history line, newline included: the label,
// ": ", and the text as [Indent] renders it.
func Line(label, text string) string {
	return label + ": " + Indent(text) + "\n"
}

// WriteLine writes Line(label, text) to sb without its newline, building
// no string of its own: a load renders every line it keeps.
func WriteLine(sb *strings.Builder, label, text string) {
	WriteLineOf(sb, label, text, Plain(text))
}

// WriteLineOf is WriteLine for a text whose Plain the caller knows: a
// memory that notes it when it stores the text renders its lines without
// reading them again.
func WriteLineOf(sb *strings.Builder, label, text string, plain bool) {
	sb.WriteString(label)
	sb.WriteString(": ")
	if plain {
		sb.WriteString(text)
		return
	}
	sb.WriteString(Indent(text))
}

// Plain reports whether Indent returns text as it is: it holds no line
// break and no control character but tab.
func Plain(text string) bool { return indexSpecial(text) < 0 }

// Indent returns text as a history shows it, so that no splitter of lines
// can read it as more than one message: each line break — "\r\n", "\n",
// "\r", "\v", "\f", U+0085, U+2028 and U+2029, the breaks Unicode and
// models treat as new lines — is rendered as [Continuation], and every
// other control character but tab is shown as its symbol: U+0000 to
// U+001F as U+2400 to U+241F ("␞" for the record separator, which
// Python's str.splitlines reads as a line break, as it does U+001C and
// U+001D), DEL as "␡", and U+0080 to U+009F as U+FFFD. A line of a
// rendered history that starts without white space is thus the first
// line of exactly one message, whatever splits it: bufio.ScanLines,
// strings.Split on "\n", or str.splitlines.
func Indent(text string) string {
	i := indexSpecial(text)
	if i < 0 {
		return text
	}
	var sb strings.Builder
	sb.Grow(len(text) + 8)
	for i >= 0 {
		sb.WriteString(text[:i])
		r, w := utf8.DecodeRuneInString(text[i:])
		if isBreak(r) {
			sb.WriteString(Continuation)
			if r == '\r' && strings.HasPrefix(text[i+w:], "\n") {
				w++
			}
		} else {
			sb.WriteRune(symbol(r))
		}
		text = text[i+w:]
		i = indexSpecial(text)
	}
	sb.WriteString(text)
	return sb.String()
}

// indexSpecial is strings.IndexFunc(text, special), read byte by byte: a
// history renders every line it shows, and most hold nothing special. The
// special runes are ASCII controls but tab, DEL, U+0080 to U+009F (0xC2
// then 0x80 to 0x9F) and U+2028 and U+2029 (0xE2 0x80 0xA8 or 0xA9); a
// byte of an invalid sequence decodes to U+FFFD, which is not special.
func indexSpecial(text string) int {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c < 0x20 && c != '\t' || c == 0x7f:
			return i
		case c == 0xc2:
			if i+1 < len(text) && text[i+1] >= 0x80 && text[i+1] <= 0x9f {
				return i
			}
		case c == 0xe2:
			if i+2 < len(text) && text[i+1] == 0x80 && (text[i+2] == 0xa8 || text[i+2] == 0xa9) {
				return i
			}
		}
	}
	return -1
}

// special reports a rune Indent renders otherwise: a line break or a
// control character other than tab.
func special(r rune) bool {
	return r < 0x20 && r != '\t' || r >= 0x7f && r <= 0x9f || r == '\u2028' || r == '\u2029'
}

// isBreak reports a rune that ends a line.
func isBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029':
		return true
	}
	return false
}

// symbol returns what a control character that is no line break is shown
// as: the Control Pictures block's symbol for it, or U+FFFD for the C1
// controls, which have none.
func symbol(r rune) rune {
	switch {
	case r < 0x20:
		return 0x2400 + r
	case r == 0x7f:
		return '\u2421'
	}
	return '\uFFFD'
}

// Context refuses a nil context, which would otherwise fail deep inside an
// embedder or a store; a memory calls it first in every method that takes
// one.
func Context(ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("nil context (use context.Background()): %w", engram.ErrInvalidInput)
	}
	return nil
}

// Message returns a kept unit as the chat message a prompt template's
// MessagesPlaceholder takes: the role is the message's type, the text as
// saved. A tool call is an AI message whose text names the call; a tool
// result keeps the id of the call it answers (toolID, "" for none).
func Message(role engram.Role, text, toolID string) llms.ChatMessage {
	switch role {
	case engram.RoleHuman:
		return llms.HumanChatMessage{Content: text}
	case engram.RoleAI, engram.RoleToolCall:
		return llms.AIChatMessage{Content: text}
	case engram.RoleToolResult:
		return llms.ToolChatMessage{ID: toolID, Content: text}
	default:
		return llms.SystemChatMessage{Content: text}
	}
}

// Returned is Message for a history returned as messages: a tool result
// with no tool-call id (a step given to Observe, which names no call)
// comes back as a system message, "tool: …", since a chat API refuses a
// tool message that answers no call.
func Returned(role engram.Role, text, toolID string) llms.ChatMessage {
	if role == engram.RoleToolResult && toolID == "" {
		return llms.SystemChatMessage{Content: "tool: " + text}
	}
	return Message(role, text, toolID)
}

// DayHeaders returns, for units said at times (in the order shown), the
// date header each is shown under: "[8 May 2023]\n" before the first unit
// of each day and "" before the others; nil if they all fall on one day.
// A history said over several days shows when each thing was said — a
// fact that changed shows when each value was said, and a question about
// when something happened has its answer's date — and one said within a
// day needs no header. Days are those of the first known time's zone, so
// that one instant reads as one day whatever zone each time carries; a
// zero time is no day: its unit gets no header, and a header is shown
// again after it only when the day changes.
func DayHeaders(times []time.Time) []string {
	var loc *time.Location
	var first time.Time
	multi := false
	for _, t := range times {
		if t.IsZero() {
			continue
		}
		if loc == nil {
			loc, first = t.Location(), t
		} else if !SameDay(first, t.In(loc)) {
			multi = true
			break
		}
	}
	if !multi {
		return nil
	}
	out := make([]string, len(times))
	var last time.Time
	for i, t := range times {
		if t.IsZero() {
			continue
		}
		if t = t.In(loc); last.IsZero() || !SameDay(t, last) {
			out[i] = "[" + t.Format("2 January 2006") + "]\n"
		}
		last = t
	}
	return out
}

// SameDay reports whether a and b fall on the same calendar day.
func SameDay(a, b time.Time) bool {
	y1, m1, d1 := a.Date()
	y2, m2, d2 := b.Date()
	return y1 == y2 && m1 == m2 && d1 == d2
}
