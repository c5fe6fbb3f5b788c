package main

import (
	"context"
	"math"
	"regexp"
	"strings"
	"unicode"

	"github.com/tmc/langchaingo/llms"
)

// localModel is the offline stand-in for a language model. It does not
// generate anything: it answers a question by quoting the remembered line
// that shares the most (rarest) words with it, and says it does not know when
// none does. What it can quote is only what the memory put in the prompt, so
// its answers show exactly what the memory recalled. Statements get "Noted.".
//
// It reads the prompt the way langchaingo's conversation chain writes it:
// history lines "Role: text", then the question as the last "Human: " line.
type localModel struct{}

var _ llms.Model = localModel{}

// standIn is what the chatbot prints about the local model when it starts.
const standIn = "The local model is an offline stand-in, not an LLM: it quotes the remembered line that best matches\n" +
	"your question, or says it does not know. It can only quote what the memory returned.\n" +
	"Use -llm ollama or -llm openai for a real model."

// dontKnow is the answer when nothing remembered matches.
const dontKnow = "I don't know: nothing the memory gave me mentions that."

// GenerateContent answers the text of the messages; see localModel.
func (localModel) GenerateContent(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	var prompt strings.Builder
	for _, m := range msgs {
		for _, p := range m.Parts {
			if t, ok := p.(llms.TextContent); ok {
				prompt.WriteString(t.Text)
				prompt.WriteByte('\n')
			}
		}
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: answer(prompt.String())}}}, nil
}

// Call answers prompt; see localModel.
//
// Deprecated: as for every llms.Model, use GenerateContent.
func (m localModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

var (
	// remembered matches a history line: a short role label, then text.
	remembered = regexp.MustCompile(`^\s*(?:- )?([A-Za-z][\w ]{0,19}): (.+)$`)
	// quoted matches the local model's own answers, to quote what they quoted.
	quoted = regexp.MustCompile(`^You told me: "(.*)"$`)
)

// answer replies to the last "Human: " line of prompt from the lines before it.
func answer(prompt string) string {
	lines := strings.Split(prompt, "\n")
	q := -1
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "Human: ") {
			q = i
			break
		}
	}
	if q < 0 {
		return dontKnow
	}
	question := strings.TrimPrefix(lines[q], "Human: ")
	if !isQuestion(question) {
		return "Noted."
	}

	type candidate struct {
		text  string
		human bool
		words map[string]bool
	}
	var cs []candidate
	df := map[string]int{}
	for _, l := range lines[:q] {
		m := remembered.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		role, text := m[1], strings.TrimSpace(m[2])
		human := role == "Human"
		if qm := quoted.FindStringSubmatch(text); qm != nil {
			text, human = qm[1], true
		}
		if isQuestion(text) {
			continue
		}
		c := candidate{text: text, human: human, words: contentWords(text)}
		for w := range c.words {
			df[w]++
		}
		cs = append(cs, c)
	}

	best, bestScore := -1, 0.0
	for i, c := range cs {
		score := 0.0
		for w := range contentWords(question) {
			if c.words[w] {
				score += math.Log(1 + float64(len(cs))/float64(df[w]))
			}
		}
		if score > 0 && score >= bestScore { // ties go to the more recent line
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return dontKnow
	}
	if cs[best].human {
		return `You told me: "` + cs[best].text + `"`
	}
	return `From memory: "` + cs[best].text + `"`
}

// isQuestion reports whether s asks something rather than states it.
func isQuestion(s string) bool {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "?") {
		return true
	}
	first, _, _ := strings.Cut(strings.ToLower(s), " ")
	switch first {
	case "what", "who", "where", "when", "which", "how", "why", "tell", "remind":
		return true
	}
	return false
}

// contentWords returns the lower-cased, crudely stemmed words of s that are
// not stop words.
func contentWords(s string) map[string]bool {
	ws := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-1]
		}
		if len(w) > 1 && !stopWords[w] {
			ws[w] = true
		}
	}
	return ws
}

var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about above after again all am an and any are as at be been before
		being but by can could did do doe does doing don down for from had has have having he her here hers
		him his how if in into is it its just know let me more most my myself no not now of off on once only
		or other our out over own please remember remind said same say she should so some such tell than
		that the their them then there these they thi this those through to too under until up very was we
		were what when where which while who whom why will with would you your yours i im i'm`) {
		stopWords[w] = true
	}
}
