package relevance

import (
	"context"
	"fmt"
	"strings"
)

// Component is a part of relevance that an ablation can switch off, to
// measure on real dialogue what each part is worth (memeval -off).
type Component uint32

// The components, as the ablation table names them. What else relevance
// once weighed (WordNet concepts, a name gate, a second hop through names,
// answer typing, a novelty boost, a share of the reply, a turn paired with
// its reply, a summary) lost recall on real dialogue and is gone; the
// ablation table in docs/measurements.md keeps their figures.
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

// ParseComponent returns the component named s; the error for another
// name lists the names there are.
func ParseComponent(s string) (Component, error) {
	for c, n := range componentNames {
		if n == strings.TrimSpace(s) {
			return c, nil
		}
	}
	return 0, fmt.Errorf("relevance: no component %q (there are %s)", s, ComponentNames())
}

// ComponentNames returns every component's name, in the order of the
// constants, comma-separated: "cosine,context,…".
func ComponentNames() string {
	var ns []string
	for _, c := range Components() {
		ns = append(ns, c.String())
	}
	return strings.Join(ns, ",")
}

type offKey struct{}

// WithOff returns ctx carrying an ablation: the components in c are
// switched off for the loads made with it (memeval -off). Nothing else
// changes: a memory in use by others is not affected.
func WithOff(ctx context.Context, c Component) context.Context {
	return context.WithValue(ctx, offKey{}, c)
}

// Off returns the components ctx switches off (WithOff); none for a plain
// context.
func Off(ctx context.Context) Component {
	if ctx == nil {
		return 0
	}
	c, _ := ctx.Value(offKey{}).(Component)
	return c
}

// On reports whether component c is switched on for a load made with q.
func (q Query) On(c Component) bool { return q.Off&c == 0 }
