// Package tokens counts tokens exactly and offline, the way OpenAI's models
// do, with tiktoken's BPE tables embedded in the binary (no download).
//
// One encoder per encoding is built on first use (about a hundred
// milliseconds) and shared by every caller in the process; [Counter.Count]
// is then safe for concurrent use. Memories count each unit once and cache
// the result on the unit, so a history is never re-counted.
//
// Importing this package installs tiktoken-go's offline loader, which also
// makes langchaingo's llms.CountTokens work without network access.
package tokens
