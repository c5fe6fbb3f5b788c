package ratedistortion

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/engram-go/engram/internal/facts"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/memvars"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/internal/text"
	"github.com/tmc/langchaingo/llms"
)

// entry is a unit in the pool with what the buffer derived from it once.
type entry struct {
	unit      engram.Unit
	terms     []string         // stemmed content words, for the lexical index, until the pool numbers them (Buffer.number)
	termIDs   []int32          // the terms' numbers (Buffer.termID), in order
	vec       relevance.Vector // the embedding, compressed for scoring
	retrieved int              // loads that kept it
	reward    float64          // rewards received after loads that kept it
	sents     []sentence       // analysed on first use by the extractive summary
	toolIDs   []string         // the tool calls it makes or answers
	group     *groupVec        // on a group's first unit: the group's embedding, cached
	call      *toolCall        // a tool call's message as given, nil for other units
	origin    string           // the long-term tier's id of a unit recalled from it; "" for the pool's own
	used      int64            // a guest's last load that recalled or kept it
	facts     facts.Analysis   // what its text says of the turns before it (internal/facts)
	factTerms []string         // terms and its facts' words, for the lexical index (indexTerms); nil until asked
	factsRead bool             // the fact extractor read it (option.WithFacts): a long-term tier need not again
	plain     bool             // its text shows as it is, on one line (memvars.Plain)
	says      uint64           // a reply's squashedHash, once noteSaid has counted it
	formulaic bool             // a reply another reply said word for word, once (Buffer.formulaic)
}

// draft is a unit prepared outside the lock, before it has a place in the pool.
type draft struct {
	role    engram.Role
	text    string
	toolIDs []string  // tool calls this message makes (RoleToolCall) or answers (RoleToolResult)
	call    *toolCall // a tool call's message as given, for option.WithReturnMessages
}

// toolCall is an AI message that calls tools, as it was given: returned as
// messages, it comes back with its calls, which a chat API needs before
// their results.
type toolCall struct {
	content string
	calls   []llms.ToolCall
}

// drafts turns chat messages into drafts, refusing messages it cannot
// store. Texts are cleaned by memvars.Clean: invalid UTF-8 is replaced
// rather than refused, and trailing white space dropped.
func drafts(msgs []llms.ChatMessage) ([]draft, error) {
	out := make([]draft, 0, len(msgs))
	for i, m := range msgs {
		// A nil pointer to a message type satisfies the interface, but its
		// value methods panic.
		if v := reflect.ValueOf(m); m == nil || v.Kind() == reflect.Pointer && v.IsNil() {
			return nil, fmt.Errorf("message %d is nil: %w", i, engram.ErrInvalidInput)
		}
		d := draft{text: m.GetContent()}
		switch m := m.(type) {
		case *llms.AIChatMessage:
			d.aiCall(*m)
		case llms.AIChatMessage:
			d.aiCall(m)
		case *llms.ToolChatMessage:
			d.role, d.toolIDs = engram.RoleToolResult, []string{m.ID}
		case llms.ToolChatMessage:
			d.role, d.toolIDs = engram.RoleToolResult, []string{m.ID}
		default:
			switch m.GetType() {
			case llms.ChatMessageTypeHuman:
				d.role = engram.RoleHuman
			case llms.ChatMessageTypeAI:
				d.role = engram.RoleAI
			case llms.ChatMessageTypeTool:
				d.role = engram.RoleToolResult
			case llms.ChatMessageTypeSystem, llms.ChatMessageTypeGeneric:
				d.role = engram.RoleSystem
			default:
				return nil, fmt.Errorf("message %d has unsupported type %q: %w", i, m.GetType(), engram.ErrInvalidInput)
			}
		}
		d.text = memvars.Clean(d.text)
		out = append(out, d)
	}
	return out, nil
}

// message returns the tool call's message, a copy the caller may change.
func (c *toolCall) message() llms.AIChatMessage {
	return llms.AIChatMessage{Content: c.content, ToolCalls: cloneCalls(c.calls)}
}

// cloneCalls copies tool calls, their function calls included.
func cloneCalls(cs []llms.ToolCall) []llms.ToolCall {
	out := slices.Clone(cs)
	for i, c := range out {
		if c.FunctionCall != nil {
			f := *c.FunctionCall
			out[i].FunctionCall = &f
		}
	}
	return out
}

// aiCall fills d from an AI message, which is a tool call when it has any.
func (d *draft) aiCall(m llms.AIChatMessage) {
	d.role = engram.RoleAI
	if len(m.ToolCalls) == 0 {
		return
	}
	d.role = engram.RoleToolCall
	d.call = &toolCall{content: memvars.Clean(m.Content), calls: cloneCalls(m.ToolCalls)}
	var calls []string
	for _, c := range m.ToolCalls {
		d.toolIDs = append(d.toolIDs, c.ID)
		if c.FunctionCall != nil {
			calls = append(calls, c.FunctionCall.Name+"("+c.FunctionCall.Arguments+")")
		}
	}
	d.text = strings.TrimSpace(d.text + " " + strings.Join(calls, " "))
}

// prefix returns the label a role's lines start with.
func (b *Buffer) prefix(r engram.Role) string {
	return memvars.Label(r, b.opts.HumanPrefix, b.opts.AIPrefix)
}

// line renders one unit as it appears in the history, newline included;
// the text's own line breaks start indented continuation lines.
func (b *Buffer) line(r engram.Role, s string) string {
	return memvars.Line(b.prefix(r), s)
}

// finite refuses a vector with a NaN or infinite component, which no
// cosine can use and no saved buffer could restore.
func finite(v []float32) error {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("the embedder returned a non-finite component: %w", engram.ErrInvalidInput)
		}
	}
	return nil
}

// prepare embeds and counts drafts; it may block on a remote embedder.
func (b *Buffer) prepare(ctx context.Context, ds []draft) ([]*entry, error) {
	texts := make([]string, len(ds)) // what is analysed of each (text.Excerpt)
	for i, d := range ds {
		texts[i] = text.Excerpt(d.text)
	}
	vecs, err := b.opts.Embedder.EmbedDocuments(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("ratedistortion: embed: %w", err)
	}
	if len(vecs) != len(ds) {
		return nil, fmt.Errorf("ratedistortion: embedder returned %d vectors for %d texts: %w", len(vecs), len(ds), engram.ErrInvalidInput)
	}
	for i, v := range vecs {
		if err := finite(v); err != nil {
			return nil, fmt.Errorf("ratedistortion: embed %q: %w", text.Excerpt(ds[i].text), err)
		}
	}
	out := make([]*entry, len(ds))
	now := b.opts.Now()
	for i, d := range ds {
		line := b.line(d.role, d.text)
		out[i] = &entry{
			unit: engram.Unit{
				Role:      d.role,
				Text:      d.text,
				Time:      now,
				Tokens:    max(1, b.opts.Counter(line)),
				Embedding: embed.Normalized(vecs[i]),
				Flags:     text.Flags(texts[i]),
			},
			terms:   text.Terms(texts[i]),
			toolIDs: d.toolIDs,
			call:    d.call,
		}
		out[i].vec = relevance.Compress(out[i].unit.Embedding)
		analyse(out[i])
	}
	return out, nil
}
