package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/engram-go/engram"
	"github.com/tmc/langchaingo/llms"
)

// localModel is the offline stand-in for a language model. It does not
// generate anything: it answers a question by quoting a remembered line,
// and says it does not know when nothing the memory returned is about the
// question. Statements get "Noted.".
//
// Over an engram memory it quotes the line the memory itself ranked first:
// of the units the memory's last load kept for this question (its Explain
// report), the one of highest relevance, and it says which. It says it does
// not know only when the memory returned nothing relevant. Over a memory
// that cannot explain itself it ranks the returned lines on its own (see
// best). Either way it can quote only what the memory put in the prompt,
// so its answers show exactly what the memory recalled.
//
// It reads the prompt the way langchaingo's conversation chain writes it:
// history lines "Role: text", then the question as the last "Human: " line.
type localModel struct {
	// report returns the memory's report of its last load; nil for a
	// memory without one.
	report func() (engram.LoadReport, bool)
}

var _ llms.Model = (*localModel)(nil)

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
func (m *localModel) GenerateContent(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	var prompt strings.Builder
	for _, m := range msgs {
		for _, p := range m.Parts {
			if t, ok := p.(llms.TextContent); ok {
				prompt.WriteString(t.Text)
				prompt.WriteByte('\n')
			}
		}
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: m.answer(prompt.String())}}}, nil
}

// Call answers prompt; see localModel.
//
// Deprecated: as for every llms.Model, use GenerateContent.
func (m *localModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

var (
	// remembered matches a history line: a short role label, then text.
	remembered = regexp.MustCompile(`^\s*(?:- )?([A-Za-z][\w ]{0,19}): (.+)$`)
	// quoted matches the local model's own answers, to quote what they
	// quoted: the quote, and after it what ranked it, if anything did.
	quoted = regexp.MustCompile(`^(?:You told me|From memory): "(.*)"(?: \([^"]*\))?$`)
)

// answer replies to the last "Human: " line of prompt: from the memory's
// own ranking when it has one for this question, else from the lines of
// the prompt before the question.
func (m *localModel) answer(prompt string) string {
	question, lines, ok := parse(prompt)
	switch {
	case !ok:
		return dontKnow
	case !isQuestion(question):
		return noted
	}
	if m != nil && m.report != nil {
		if r, ok := m.report(); ok && strings.TrimSpace(r.Query) == question {
			return ranked(question, r)
		}
	}
	return answer(question, lines)
}

// parse returns the last "Human: " line of prompt and the lines before it;
// false if there is none.
func parse(prompt string) (string, []string, bool) {
	lines := strings.Split(prompt, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if q, ok := strings.CutPrefix(lines[i], "Human: "); ok {
			return strings.TrimSpace(q), lines[:i], true
		}
	}
	return "", nil, false
}

// candidate returns what a remembered line of role said, and whether it is
// a candidate answer to question: what was said, not asked, and not the
// stand-in's own acknowledgements; its quotes count as what they quote,
// said by the human.
func candidate(question, role, text string) (string, bool, bool) {
	text = strings.TrimSpace(text)
	human := role == "Human"
	if qm := quoted.FindStringSubmatch(text); qm != nil {
		text, human = qm[1], true
	}
	if text == "" || isQuestion(text) || text == noted || text == dontKnow || strings.EqualFold(text, question) {
		return "", false, false
	}
	return text, human, true
}

// quote is the answer that quotes text, with why it was chosen when the
// memory chose it.
func quote(text string, human bool, why string) string {
	a := `From memory: "` + text + `"`
	if human {
		a = `You told me: "` + text + `"`
	}
	if why != "" {
		a += " (" + why + ")"
	}
	return a
}

// ranked answers question from the memory's own report of the load: of
// the kept units the memory found relevant (relevance above 0) that are
// candidates, those that hold what the question asks for (asksFor: a date
// for "when", a number for "how old", a name for "who", a place for
// "where") if any do, and of
// them the one whose words best meet the question's (wordsMeet) plus
// relevanceShare of the memory's relevance; it says which unit it is and
// where the memory ranked it. The memory's relevance alone makes a
// poor first pick, since a line inherits relevance from the fact beside it
// ("My car is a blue Toyota Corolla." after "Our son plays football every
// Saturday." for "What sport does my boy do?"), so the words decide among
// what the memory found relevant; there is no threshold: if the memory
// found any kept line relevant, the stand-in answers, and it says it does
// not know only when the memory found none.
func ranked(question string, r engram.LoadReport) string {
	type cand struct {
		u     *engram.UnitReport
		text  string
		human bool
		typed bool // it holds what the question asks for (holds)
		score float64
	}
	var cs []cand
	wants := asksFor(question)
	for i := range r.Units {
		u := &r.Units[i]
		if !u.Kept || u.Relevance <= 0 {
			continue
		}
		if t, h, ok := candidate(question, labelOf(u.Role), u.Text); ok {
			cs = append(cs, cand{u, t, h, holds(wants, t), wordsMeet(question, t) + relevanceShare*u.Relevance})
		}
	}
	if len(cs) == 0 {
		return dontKnow
	}
	// A line that holds what the question asks for ("When …?" and a date)
	// comes before any that does not: small talk that shares the
	// question's words cannot say when, how many or who.
	top := 0
	for i, c := range cs {
		t := cs[top]
		if c.typed != t.typed {
			if c.typed {
				top = i
			}
			continue
		}
		if c.score > t.score || (c.score == t.score && c.u.Seq > t.u.Seq) {
			top = i
		}
	}
	rank := 1
	for _, c := range cs {
		if c.u.Relevance > cs[top].u.Relevance {
			rank++
		}
	}
	c := cs[top]
	return quote(c.text, c.human, fmt.Sprintf("memory unit %s, relevance %.2f, ranked %d of the %d relevant lines it kept",
		c.u.ID, c.u.Relevance, rank, len(cs)))
}

// labelOf is the history label of a role, as the conversation chain's
// prompt shows it.
func labelOf(r engram.Role) string {
	switch r {
	case engram.RoleHuman:
		return "Human"
	case engram.RoleAI, engram.RoleToolCall:
		return "AI"
	}
	return r.String()
}

// answer replies to question from the history lines before it, ranked by
// the stand-in itself (best), for a memory that does not rank what it
// returns.
func answer(question string, lines []string) string {
	var texts []string
	var human []bool
	for _, l := range lines {
		m := remembered.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if t, h, ok := candidate(question, m[1], m[2]); ok {
			texts, human = append(texts, t), append(human, h)
		}
	}
	i, ok := best(question, texts)
	if !ok {
		return dontKnow
	}
	return quote(texts[i], human[i], "")
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
