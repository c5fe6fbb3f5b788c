// Package tokens counts tokens exactly and offline, the way OpenAI's models
// do, with tiktoken's BPE tables embedded in the binary (no download).
//
// A count equals tiktoken-go's EncodeOrdinary count for any text. The
// encoding's pre-tokenizer pattern is followed by hand (pretoken.go), not by
// a regular-expression engine, and byte-pair merges of a long piece are
// ordered by a heap (bpe.go), so counting takes n log n time in the length
// of the text, however long its runs without white space. A property test
// checks the counts against tiktoken-go on random mixed-script text.
//
// One table per encoding is built on first use (about a hundred
// milliseconds) and shared by every caller in the process; [Counter.Count]
// is then safe for concurrent use. Memories count each unit once and cache
// the result on the unit, so a history is never re-counted.
//
// Importing this package installs tiktoken-go's offline loader, which also
// makes langchaingo's llms.CountTokens work without network access.
package tokens
