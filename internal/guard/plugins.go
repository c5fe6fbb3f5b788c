package guard

import (
	"context"
	"log/slog"

	"github.com/engram-go/engram"
	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

// Plugins holds one guard per kind of plug-in a memory takes.
type Plugins struct {
	LongTerm, Facts, Summarizer, Embedder, ChatHistory *Guard
}

// NewPlugins returns the guards of one memory; panics go to logger and
// every failure to onFail, which may be nil.
func NewPlugins(logger *slog.Logger, onFail func(error)) *Plugins {
	return &Plugins{
		LongTerm:    New("long-term tier", logger, onFail),
		Facts:       New("fact extractor", logger, onFail),
		Summarizer:  New("summariser", logger, onFail),
		Embedder:    New("embedder", logger, onFail),
		ChatHistory: New("chat history", logger, onFail),
	}
}

// Failures returns the failures counted so far.
func (p *Plugins) Failures() engram.Failures {
	return engram.Failures{
		LongTerm:    p.LongTerm.Failed(),
		Facts:       p.Facts.Failed(),
		Summarizer:  p.Summarizer.Failed(),
		Embedder:    p.Embedder.Failed(),
		ChatHistory: p.ChatHistory.Failed(),
	}
}

// Extractor returns ex guarded by g.
func Extractor(ex engram.FactExtractor, g *Guard) engram.FactExtractor {
	return func(ctx context.Context, u engram.Unit, known []engram.Fact) ([]engram.Fact, error) {
		return Do(ctx, g, "extract", func(ctx context.Context) ([]engram.Fact, error) { return ex(ctx, u, known) })
	}
}

// Embedder returns e guarded by g.
func Embedder(e embeddings.Embedder, g *Guard) embeddings.Embedder { return embedder{e, g} }

type embedder struct {
	e embeddings.Embedder
	g *Guard
}

func (x embedder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	return Do(ctx, x.g, "embed documents", func(ctx context.Context) ([][]float32, error) { return x.e.EmbedDocuments(ctx, texts) })
}

func (x embedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	return Do(ctx, x.g, "embed query", func(ctx context.Context) ([]float32, error) { return x.e.EmbedQuery(ctx, text) })
}

// Model returns m guarded by g.
func Model(m llms.Model, g *Guard) llms.Model { return model{m, g} }

type model struct {
	m llms.Model
	g *Guard
}

func (x model) GenerateContent(ctx context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	return Do(ctx, x.g, "generate", func(ctx context.Context) (*llms.ContentResponse, error) {
		return x.m.GenerateContent(ctx, msgs, opts...)
	})
}

func (x model) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return Do(ctx, x.g, "call", func(ctx context.Context) (string, error) {
		return x.m.Call(ctx, prompt, opts...) //nolint:staticcheck // the interface's own method
	})
}

// History returns h guarded by g.
func History(h schema.ChatMessageHistory, g *Guard) schema.ChatMessageHistory { return history{h, g} }

type history struct {
	h schema.ChatMessageHistory
	g *Guard
}

func (x history) AddMessage(ctx context.Context, m llms.ChatMessage) error {
	return x.do(ctx, "add message", func(ctx context.Context) error { return x.h.AddMessage(ctx, m) })
}

func (x history) AddUserMessage(ctx context.Context, s string) error {
	return x.do(ctx, "add user message", func(ctx context.Context) error { return x.h.AddUserMessage(ctx, s) })
}

func (x history) AddAIMessage(ctx context.Context, s string) error {
	return x.do(ctx, "add AI message", func(ctx context.Context) error { return x.h.AddAIMessage(ctx, s) })
}

func (x history) Clear(ctx context.Context) error {
	return x.do(ctx, "clear", x.h.Clear)
}

func (x history) Messages(ctx context.Context) ([]llms.ChatMessage, error) {
	return Do(ctx, x.g, "messages", x.h.Messages)
}

func (x history) SetMessages(ctx context.Context, ms []llms.ChatMessage) error {
	return x.do(ctx, "set messages", func(ctx context.Context) error { return x.h.SetMessages(ctx, ms) })
}

func (x history) do(ctx context.Context, op string, fn func(context.Context) error) error {
	_, err := Do(ctx, x.g, op, func(ctx context.Context) (struct{}, error) { return struct{}{}, fn(ctx) })
	return err
}
