package engram

// TokenCounter returns how many tokens text costs. It must be deterministic
// and safe for concurrent use. The tokens package provides the exact
// tiktoken counter that every memory uses by default.
type TokenCounter func(text string) int
