package main

import (
	"fmt"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"
)

// newModel returns the model -llm names. The clients read their usual
// environment: OLLAMA_HOST for ollama; OPENAI_API_KEY, OPENAI_MODEL and
// OPENAI_BASE_URL for openai.
func newModel(c config) (llms.Model, error) {
	switch c.llm {
	case "local":
		return &localModel{}, nil
	case "ollama":
		model := c.model
		if model == "" {
			model = "llama3.1"
		}
		return ollama.New(ollama.WithModel(model))
	case "openai":
		var opts []openai.Option
		if c.model != "" {
			opts = append(opts, openai.WithModel(c.model))
		}
		return openai.New(opts...)
	}
	return nil, fmt.Errorf("-llm %q: want local, ollama or openai", c.llm)
}
