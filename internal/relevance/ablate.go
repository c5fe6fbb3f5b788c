package relevance

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// Component is a part of relevance that an ablation can switch off, to
// measure on real dialogue what each part is worth (cmd/memeval -ablate).
type Component uint32

// The components, as the ablation table names them.
const (
	Concepts     Component = 1 << iota // WordNet concepts beside the words in BM25
	Cosine                             // embedding cosine beside BM25
	NameGate                           // documents that name the query's names first
	Expansion                          // second hop through the best documents' names
	AnswerTyping                       // the kind of answer the question asks for
	Novelty                            // words a document brought that none before it used
	Context                            // a share of the neighbouring turns' relevance
	Speaker                            // the turn's speaker is named in the question
	Asked                              // the turn answers a question asked just before it
	Reply                              // a share of the reply's relevance (ablated against Context)
	Pairing                            // a turn and its reply kept or dropped together
	Summary                            // a summary of what was left out
	Recency                            // newer units worth a little more
	Flags                              // names, numbers, dates worth a little more
	lastComponent
)

var componentNames = map[Component]string{
	Concepts: "concepts", Cosine: "cosine", NameGate: "name-gate", Expansion: "expansion",
	AnswerTyping: "answer-typing", Novelty: "novelty", Context: "context", Speaker: "speaker",
	Asked: "asked", Reply: "reply", Pairing: "pairing", Summary: "summary", Recency: "recency", Flags: "flags",
}

// Components returns every component, in the order of the constants.
func Components() []Component {
	var out []Component
	for c := Component(1); c < lastComponent; c <<= 1 {
		out = append(out, c)
	}
	return out
}

// String returns the component's name, e.g. "novelty".
func (c Component) String() string {
	if n, ok := componentNames[c]; ok {
		return n
	}
	return fmt.Sprintf("component(%d)", uint32(c))
}

// ParseComponent returns the component named s.
func ParseComponent(s string) (Component, error) {
	for c, n := range componentNames {
		if n == strings.TrimSpace(s) {
			return c, nil
		}
	}
	return 0, fmt.Errorf("relevance: no component %q", s)
}

var off atomic.Uint32

// SetOff switches the components in c off (and every other on) for every
// memory of the process, until restore is called. It is for ablations: a
// memory in use sees the change at its next load.
func SetOff(c Component) (restore func()) {
	prev := off.Swap(uint32(c))
	return func() { off.Store(prev) }
}

// On reports whether component c is switched on.
func On(c Component) bool { return off.Load()&uint32(c) == 0 }
