package main

import (
	"context"
	"regexp"
	"strings"
	"unicode"

	"github.com/tmc/langchaingo/llms"
)

// localModel is the offline stand-in for a language model. It does not
// generate anything: it answers a question by quoting the remembered line
// most relevant to it (see best: the project's relevance over the returned
// lines, with GloVe word vectors, so "What is my job?" finds "I work as a
// marine biologist"), and says it does not know when no line is about the
// question. What it can quote is only what the memory put in the prompt, so
// its answers show exactly what the memory recalled. Statements get "Noted.".
//
// It reads the prompt the way langchaingo's conversation chain writes it:
// history lines "Role: text", then the question as the last "Human: " line.
type localModel struct{}

var _ llms.Model = localModel{}

// standIn is what the chatbot prints about the local model when it starts.
const standIn = "The local model is an offline stand-in, not an LLM: it quotes the remembered line most relevant to\n" +
	"your question, or says it does not know. It can only quote what the memory returned.\n" +
	"Use -llm ollama or -llm openai for a real model."

// dontKnow is the answer when nothing the memory returned is about the
// question, and noted the answer to a statement.
const (
	dontKnow = "I don't know: nothing the memory returned is about that."
	noted    = "Noted."
)

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
		return noted
	}

	// The candidates: what was said, not asked, and not the stand-in's own
	// acknowledgements; its quotes count as what they quote.
	var texts []string
	var human []bool
	for _, l := range lines[:q] {
		m := remembered.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		role, text := m[1], strings.TrimSpace(m[2])
		h := role == "Human"
		if qm := quoted.FindStringSubmatch(text); qm != nil {
			text, h = qm[1], true
		}
		if isQuestion(text) || text == noted || text == dontKnow || strings.EqualFold(text, question) {
			continue
		}
		texts, human = append(texts, text), append(human, h)
	}
	i, ok := best(question, texts)
	if !ok {
		return dontKnow
	}
	if human[i] {
		return `You told me: "` + texts[i] + `"`
	}
	return `From memory: "` + texts[i] + `"`
}

// questionWords open a question even without its question mark.
var questionWords = map[string]bool{"what": true, "who": true, "whom": true, "whose": true, "where": true,
	"when": true, "which": true, "why": true, "how": true, "tell": true, "remind": true}

// notAsking are the words that, after a question word, open an exclamation
// ("what a day") or a clause ("when I was young", "what you said") instead
// of a question.
var notAsking = map[string]bool{"a": true, "an": true, "such": true,
	"i": true, "you": true, "we": true, "they": true, "he": true, "she": true, "it": true}

// howAsks are the words after "how" that ask ("how is", "how many"); any
// other makes an exclamation ("how nice of you").
var howAsks = map[string]bool{"is": true, "are": true, "was": true, "were": true, "do": true, "does": true,
	"did": true, "can": true, "could": true, "will": true, "would": true, "should": true, "may": true,
	"might": true, "has": true, "have": true, "had": true, "many": true, "much": true, "long": true,
	"old": true, "far": true, "often": true, "soon": true, "come": true, "about": true}

// isQuestion reports whether s asks something rather than states it: it
// ends with '?', or it opens with a question word followed by more words
// that ask ("what is the wifi password"), and does not end with '!'.
// "What a long week it has been." and "When I was young I lived in Porto."
// state.
func isQuestion(s string) bool {
	s = strings.TrimSpace(s)
	switch {
	case strings.HasSuffix(s, "?"):
		return true
	case strings.HasSuffix(s, "!"):
		return false
	}
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return unicode.IsSpace(r) || r == ',' || r == '.' || r == ';' || r == ':'
	})
	if len(words) < 2 || !questionWords[words[0]] || notAsking[words[1]] {
		return false
	}
	return words[0] != "how" || howAsks[words[1]]
}
