package relevance

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// Component is a part of relevance that an ablation can switch off, to
// measure on real dialogue what each part is worth (memeval -off).
type Component uint32

// The components, as the ablation table names them. What else relevance
// once weighed (WordNet concepts, a name gate, a second hop through names,
// answer typing, a novelty boost, a share of the reply, a turn paired with
// its reply, a summary) lost recall on real dialogue and is gone; the
// README's ablation table keeps their figures.
const (
	Cosine  Component = 1 << iota // embedding cosine beside BM25
	Context                       // a share of the neighbouring turns' relevance
	Speaker                       // the turn's speaker is named in the question
	Asked                         // the turn answers a question asked just before it
	Recency                       // newer units worth a little more (ratedistortion)
	Flags                         // names, numbers, dates worth a little more (ratedistortion)
	lastComponent
)

var componentNames = map[Component]string{
	Cosine: "cosine", Context: "context", Speaker: "speaker", Asked: "asked",
	Recency: "recency", Flags: "flags",
}

// Components returns every component, in the order of the constants.
func Components() []Component {
	var out []Component
	for c := Component(1); c < lastComponent; c <<= 1 {
		out = append(out, c)
	}
	return out
}

// String returns the component's name, e.g. "cosine".
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
