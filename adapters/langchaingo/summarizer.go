package langchaingo

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tmc/langchaingo/llms"
)

// SummarizeFunc condenses text to at most about maxTokens tokens.
type SummarizeFunc func(ctx context.Context, text string, maxTokens int) (string, error)

// DefaultSummaryPrompt is the instruction [Summarizer] gives the model; %d
// is replaced by the token limit.
const DefaultSummaryPrompt = "Summarise the conversation below in at most %d tokens. " +
	"Keep names, numbers, dates and anything the user asked to remember. " +
	"Answer with the summary alone."

// Summarizer returns m as a summariser. The model gets prompt (each %d
// replaced by the token limit, any other % left as it is; "" means
// [DefaultSummaryPrompt]) as a system message, the
// text as a human message, and llms.WithMaxTokens(maxTokens). The reply is
// trimmed of surrounding space. ratedistortion takes an llms.Model directly
// (WithSummarizer); this is for code that takes a function.
func Summarizer(m llms.Model, prompt string) SummarizeFunc {
	if prompt == "" {
		prompt = DefaultSummaryPrompt
	}
	return func(ctx context.Context, text string, maxTokens int) (string, error) {
		if maxTokens <= 0 || strings.TrimSpace(text) == "" {
			return "", nil
		}
		// Not Sprintf: any other % in the prompt is the user's text.
		instr := strings.ReplaceAll(prompt, "%d", strconv.Itoa(maxTokens))
		resp, err := m.GenerateContent(ctx, []llms.MessageContent{
			llms.TextParts(llms.ChatMessageTypeSystem, instr),
			llms.TextParts(llms.ChatMessageTypeHuman, text),
		}, llms.WithMaxTokens(maxTokens))
		if err != nil {
			return "", fmt.Errorf("langchaingo: summarise: %w", err)
		}
		if len(resp.Choices) == 0 {
			return "", fmt.Errorf("langchaingo: summarise: model returned no choice")
		}
		return strings.TrimSpace(resp.Choices[0].Content), nil
	}
}
