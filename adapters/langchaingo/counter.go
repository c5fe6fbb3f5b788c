package langchaingo

import (
	"fmt"
	"sort"
	"strings"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/tokens"
	"github.com/pkoukk/tiktoken-go"
	"github.com/tmc/langchaingo/llms"
)

// TokenCounter returns the exact counter for a model named as langchaingo
// and OpenAI name it ("gpt-4o" → o200k_base, "gpt-4" → cl100k_base), with
// tables embedded in the binary. A model whose encoding is not embedded
// gives an error wrapping [tokens.ErrUnknownEncoding].
func TokenCounter(model string) (engram.TokenCounter, error) {
	enc, ok := tiktoken.MODEL_TO_ENCODING[model]
	if !ok {
		// Longest prefix first: "gpt-4o-" must win over "gpt-4-".
		prefixes := make([]string, 0, len(tiktoken.MODEL_PREFIX_TO_ENCODING))
		for p := range tiktoken.MODEL_PREFIX_TO_ENCODING {
			prefixes = append(prefixes, p)
		}
		sort.Slice(prefixes, func(i, j int) bool { return len(prefixes[i]) > len(prefixes[j]) })
		for _, p := range prefixes {
			if strings.HasPrefix(model, p) {
				enc, ok = tiktoken.MODEL_PREFIX_TO_ENCODING[p], true
				break
			}
		}
	}
	if !ok {
		return nil, fmt.Errorf("langchaingo: model %q: %w", model, tokens.ErrUnknownEncoding)
	}
	c, err := tokens.Get(tokens.Encoding(enc))
	if err != nil {
		return nil, fmt.Errorf("langchaingo: model %q: %w", model, err)
	}
	return c.Count, nil
}

// CountTokens returns llms.CountTokens for model as an engram.TokenCounter,
// so that a memory counts as langchaingo's own token buffer does, fallbacks
// included. Importing this package installs the offline tables, so it needs
// no network for the encodings engram embeds.
func CountTokens(model string) engram.TokenCounter {
	return func(text string) int { return llms.CountTokens(model, text) }
}
