package eino

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/tmc/langchaingo/llms"
)

// Model returns an eino chat model as a langchaingo llms.Model, text only,
// so that an eino model can summarise for a memory
// (ratedistortion.WithSummarizer). Of langchaingo's call options, the model
// name, max tokens, temperature, top-p and stop words are passed on; a
// zero temperature or top-p is taken as unset, since langchaingo's options
// cannot tell the two apart.
func Model(m model.BaseChatModel) llms.Model { return chatModel{m} }

type chatModel struct{ m model.BaseChatModel }

func (c chatModel) GenerateContent(ctx context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	in := make([]*schema.Message, 0, len(msgs))
	for _, mc := range msgs {
		var text string
		for _, p := range mc.Parts {
			if t, ok := p.(llms.TextContent); ok {
				text += t.Text
			}
		}
		in = append(in, &schema.Message{Role: role(mc.Role), Content: text})
	}
	var o llms.CallOptions
	for _, opt := range options {
		opt(&o)
	}
	var eopts []model.Option
	if o.Model != "" {
		eopts = append(eopts, model.WithModel(o.Model))
	}
	if o.MaxTokens > 0 {
		eopts = append(eopts, model.WithMaxTokens(o.MaxTokens))
	}
	if o.Temperature != 0 {
		eopts = append(eopts, model.WithTemperature(float32(o.Temperature)))
	}
	if o.TopP != 0 {
		eopts = append(eopts, model.WithTopP(float32(o.TopP)))
	}
	if len(o.StopWords) > 0 {
		eopts = append(eopts, model.WithStop(o.StopWords))
	}
	out, err := c.m.Generate(ctx, in, eopts...)
	if err != nil {
		return nil, fmt.Errorf("eino: generate: %w", err)
	}
	if out == nil {
		return nil, fmt.Errorf("eino: generate: model returned no message")
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: out.Content}}}, nil
}

func (c chatModel) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, c, prompt, options...)
}

func role(t llms.ChatMessageType) schema.RoleType {
	switch t {
	case llms.ChatMessageTypeSystem:
		return schema.System
	case llms.ChatMessageTypeAI:
		return schema.Assistant
	case llms.ChatMessageTypeTool:
		return schema.Tool
	}
	return schema.User
}
