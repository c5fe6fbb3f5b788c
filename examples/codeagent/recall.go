package main

import (
	"context"
	"regexp"

	"github.com/engram-go/engram/dmem"
)

// recallLimit is how many experiences the agent asks memory for.
const recallLimit = 5

// recollection is one remembered attempt: which fix was tried on which
// error, and whether the tests then passed.
type recollection struct {
	fix, err string
	worked   bool
	// text is the memory's line, for a model to read.
	text string
}

// attempted is how the tool's input labels a test run; it is what memory
// stores, inside the step the callbacks handler reports.
func attempted(p patch, errLine string) string {
	if p.about != "" {
		return "fix " + p.name + " (" + p.about + ") for error: " + errLine
	}
	return "fix " + p.name + " for error: " + errLine
}

// experience parses a step the callbacks handler reported for a go_test run:
//
//	go_test(fix NAME … for error: ERR) → ok
//	go_test(fix NAME … for error: ERR) failed: FAIL: …
var experience = regexp.MustCompile(`go_test\(fix (\S+) .*?for error: (.*?)\) (→ ok|failed: )`)

// recall asks memory for experiences near the error, best first.
func recall(ctx context.Context, mem *dmem.Memory, errLine string) ([]recollection, error) {
	docs, err := mem.SimilaritySearch(ctx, "error: "+errLine, recallLimit)
	if err != nil {
		return nil, err
	}
	var rs []recollection
	for _, d := range docs {
		m := experience.FindStringSubmatch(d.PageContent)
		if m == nil {
			continue
		}
		rs = append(rs, recollection{fix: m[1], err: m[2], worked: m[3] == "→ ok", text: d.PageContent})
	}
	return rs, nil
}
