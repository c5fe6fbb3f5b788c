package langchaingo

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engram-go/engram"
	"github.com/tmc/langchaingo/llms"
)

// DefaultFactPrompt is the instruction [FactExtractor] gives the model as a
// system message. The message that follows it holds the known facts, the
// speaker and the text.
const DefaultFactPrompt = `Extract the lasting facts one chat message states, for a memory that keeps each fact's latest value.
Rules:
- Only durable facts about people, pets or things: where they live or work, job, partner, family, pets, preferences, contact details, schedules, possessions. Not greetings, questions, opinions of the chat or passing events.
- Name every subject, never a pronoun: in "Omar: we moved to Edinburgh" the subject is Omar. What the speaker says of themselves without a name has the Speaker line's word as subject.
- When the message restates, changes or corrects a known fact, copy that fact's subject and relation exactly and give the new value.
- Keep relations short and general: "home city", "employer", "partner".
Answer one fact per line as: subject | relation | value
If the message states no such fact, answer with the single word NONE.`

// DefaultMaxFacts is how many facts [FactExtractor] keeps per unit unless
// [WithMaxFacts] says otherwise.
const DefaultMaxFacts = 8

// maxFactRunes caps each field of a parsed fact, so that a rambling reply
// cannot fill a slot table with paragraphs.
const maxFactRunes = 200

// FactOption configures [FactExtractor].
type FactOption func(*factOptions)

type factOptions struct {
	prompt   string
	maxFacts int
}

// WithFactPrompt replaces the system message; the default is
// [DefaultFactPrompt], and "" keeps it. The reply is parsed as one
// "subject | relation | value" per line or NONE whatever the prompt, so a
// replacement must ask for that; to add rules, append to
// DefaultFactPrompt.
func WithFactPrompt(prompt string) FactOption {
	return func(o *factOptions) { o.prompt = prompt }
}

// WithMaxFacts sets how many facts are kept per unit, the first n the model
// lists; the default is [DefaultMaxFacts]. n must be at least 1.
func WithMaxFacts(n int) FactOption {
	return func(o *factOptions) { o.maxFacts = n }
}

// FactExtractor returns an [engram.FactExtractor] that asks model, at
// temperature 0, for the facts a unit states (option.WithFacts). The model gets the prompt ([WithFactPrompt]) as a
// system message, and as a human message the known slots, newest first,
// the unit's speaker ("user" for a human turn, "assistant" for the model's)
// and its text. A unit whose text is blank is not sent.
//
// The reply is read leniently: bullets, numbering, quotes, code fences,
// table borders and a header line are ignored, as are lines without three
// non-empty "|"-separated fields; fields are trimmed and capped at 200
// characters, and at most [WithMaxFacts] facts are kept. A model error is
// returned wrapped. A nil model or a bad option gives an error wrapping
// [engram.ErrInvalidOption].
func FactExtractor(model llms.Model, opts ...FactOption) (engram.FactExtractor, error) {
	o := factOptions{prompt: DefaultFactPrompt, maxFacts: DefaultMaxFacts}
	for _, opt := range opts {
		opt(&o)
	}
	if v := reflect.ValueOf(model); model == nil || v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("langchaingo: fact extractor: nil model: %w", engram.ErrInvalidOption)
	}
	if o.maxFacts < 1 {
		return nil, fmt.Errorf("langchaingo: fact extractor: max facts %d, want at least 1: %w", o.maxFacts, engram.ErrInvalidOption)
	}
	if o.prompt == "" {
		o.prompt = DefaultFactPrompt
	}
	return func(ctx context.Context, u engram.Unit, known []engram.Fact) ([]engram.Fact, error) {
		if strings.TrimSpace(u.Text) == "" {
			return nil, nil
		}
		resp, err := model.GenerateContent(ctx, []llms.MessageContent{
			llms.TextParts(llms.ChatMessageTypeSystem, o.prompt),
			llms.TextParts(llms.ChatMessageTypeHuman, factRequest(u, known)),
		}, llms.WithTemperature(0))
		if err != nil {
			return nil, fmt.Errorf("langchaingo: extract facts: %w", err)
		}
		if len(resp.Choices) == 0 {
			return nil, fmt.Errorf("langchaingo: extract facts: model returned no choice")
		}
		return parseFacts(resp.Choices[0].Content, o.maxFacts), nil
	}, nil
}

// factRequest writes the human message: the known slots as a table, then
// who speaks and what they say.
func factRequest(u engram.Unit, known []engram.Fact) string {
	var b strings.Builder
	if len(known) > engram.MaxKnownFacts {
		known = known[:engram.MaxKnownFacts]
	}
	n := 0
	for _, f := range known {
		if !f.Valid() {
			continue
		}
		if n == 0 {
			b.WriteString("Known facts, newest first (subject | relation | value):\n")
		}
		n++
		fmt.Fprintf(&b, "%s | %s | %s\n", cell(f.Subject), cell(f.Relation), cell(f.Value))
	}
	if n == 0 {
		b.WriteString("Known facts: none\n")
	}
	fmt.Fprintf(&b, "\nSpeaker: %s\nMessage:\n%s", speaker(u.Role), u.Text)
	return b.String()
}

// cell keeps a known field on its table row: no line breaks, no "|".
func cell(s string) string { return strings.TrimSpace(cellBreaks.Replace(s)) }

var cellBreaks = strings.NewReplacer("\r", " ", "\n", " ", "|", "/")

// speaker is the subject of what a unit's author says of themselves
// without a name: the words chat APIs use for the two sides.
func speaker(r engram.Role) string {
	switch r {
	case engram.RoleHuman:
		return "user"
	case engram.RoleAI:
		return "assistant"
	case engram.RoleToolCall, engram.RoleToolResult:
		return "tool"
	default:
		return r.String()
	}
}

// listMark matches a bullet or a list number before a line's content.
var listMark = regexp.MustCompile(`^(?:[-*+•·>]+|\(?[0-9]{1,3}[.):])\s*`)

// trimmed cuts what surrounds a line or a field without being part of it:
// space, quotes, backticks and markdown emphasis.
func trimmed(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("\"'`“”‘’*_", r)
	})
}

// lineBreaks makes every line break a "\n": a lone "\r" ends a line too.
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// parseFacts reads a reply of "subject | relation | value" lines, at most
// limit facts, skipping whatever else a model adds and facts it repeats.
func parseFacts(reply string, limit int) []engram.Fact {
	var facts []engram.Fact
	for line := range strings.Lines(lineBreaks.Replace(strings.ToValidUTF8(reply, "\uFFFD"))) {
		if len(facts) >= limit {
			break
		}
		line = trimmed(listMark.ReplaceAllString(trimmed(line), ""))
		// A markdown table row has a border at each end.
		line = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|"))
		fields := strings.Split(line, "|")
		if len(fields) != 3 {
			continue
		}
		for i, f := range fields {
			fields[i] = capRunes(trimmed(f), maxFactRunes)
		}
		f := engram.Fact{Subject: fields[0], Relation: fields[1], Value: fields[2]}
		if f.Valid() && !isHeader(f) && !repeats(facts, f) {
			facts = append(facts, f)
		}
	}
	return facts
}

// repeats reports whether facts already give f's slot f's value.
func repeats(facts []engram.Fact, f engram.Fact) bool {
	for _, g := range facts {
		if g.Key() == f.Key() && g.SameValue(f) {
			return true
		}
	}
	return false
}

// isHeader reports whether f is a table's header row, "Subject | Relation
// | Value", which the prompt shows the model.
func isHeader(f engram.Fact) bool {
	return f.Key() == "subject|relation" && f.SameValue(engram.Fact{Value: "value"})
}

// capRunes cuts s to at most n runes, trimming the space a cut may expose.
func capRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for i = range s {
		if k == n {
			break
		}
		k++
	}
	return strings.TrimSpace(s[:i])
}
