package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"
)

// newProposer returns the proposer -llm chose and a line describing it.
func newProposer(c config) (proposer, string, error) {
	switch c.llm {
	case "offline":
		return catalogueProposer{}, fmt.Sprintf("the offline catalogue (%d textual fixes tried in name order; no LLM)", len(catalogue)), nil
	case "ollama":
		model := c.model
		if model == "" {
			model = "llama3.1"
		}
		m, err := ollama.New(ollama.WithModel(model)) // OLLAMA_HOST as usual
		if err != nil {
			return nil, "", err
		}
		return &modelProposer{model: m}, "ollama model " + model, nil
	case "openai":
		var opts []openai.Option // OPENAI_API_KEY, OPENAI_MODEL, OPENAI_BASE_URL as usual
		if c.model != "" {
			opts = append(opts, openai.WithModel(c.model))
		}
		m, err := openai.New(opts...)
		if err != nil {
			return nil, "", err
		}
		return &modelProposer{model: m}, "openai", nil
	}
	return nil, "", fmt.Errorf("-llm %q: want offline, ollama or openai", c.llm)
}

// modelProposer asks a language model for a patch, showing it the code, the
// error, what memory recalled and what already failed.
type modelProposer struct {
	model llms.Model
	n     int // patches proposed so far, to name them
}

const patchPrompt = `You fix Go code. The tests of this package fail.

%s
go test says: %s

%s%sReply with one textual replacement that makes the tests pass, in exactly this form:
FILE: <file name>
OLD:
<exact lines to replace>
NEW:
<replacement lines>
END`

func (m *modelProposer) propose(ctx context.Context, p problem) (patch, error) {
	var code strings.Builder
	for _, name := range p.task.sources() {
		fmt.Fprintf(&code, "--- %s\n%s\n", name, p.task.files[name])
	}
	var mem, tried string
	if len(p.recalled) > 0 {
		mem = "From memory, earlier attempts on similar errors:\n"
		for _, r := range p.recalled {
			mem += "- " + r.text + "\n"
		}
		mem += "\n"
	}
	if len(p.tried) > 0 {
		tried = "Already tried here, and failed: " + strings.Join(p.tried, ", ") + "\n\n"
	}
	reply, err := llms.GenerateFromSinglePrompt(ctx, m.model, fmt.Sprintf(patchPrompt, code.String(), p.err, mem, tried))
	if err != nil {
		return patch{}, err
	}
	m.n++
	return parsePatch(p.task, reply, fmt.Sprintf("llm-%d", m.n))
}

var replacement = regexp.MustCompile(`(?s)FILE:\s*(\S+)\s*\nOLD:\n(.*?)\nNEW:\n(.*?)\nEND`)

// parsePatch reads a model's reply. A reply that does not parse, or whose OLD
// text is not in the file, is still a patch — one that changes nothing and so
// fails its test, as an unusable answer should.
func parsePatch(t task, reply, name string) (patch, error) {
	p := patch{name: name, about: "unusable reply", files: map[string]string{}}
	m := replacement.FindStringSubmatch(reply)
	if m == nil {
		return p, nil
	}
	file, old, new := m[1], m[2], m[3]
	src, ok := t.files[file]
	if !ok || strings.HasSuffix(file, "_test.go") || old == "" || !strings.Contains(src, old) {
		return p, nil
	}
	p.about = fmt.Sprintf("%s: %q → %q", file, oneLine(old), oneLine(new))
	p.files[file] = strings.Replace(src, old, new, 1)
	return p, nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
