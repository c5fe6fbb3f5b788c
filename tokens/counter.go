package tokens

import (
	"errors"
	"fmt"
	"sync"
	"unicode"

	"github.com/engram-go/engram"
	"github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

// Encoding names a tiktoken encoding.
type Encoding string

// Encodings whose tables are embedded.
const (
	// CL100kBase is the encoding of GPT-3.5 and GPT-4; the default.
	CL100kBase Encoding = "cl100k_base"
	// O200kBase is the encoding of GPT-4o and later models.
	O200kBase Encoding = "o200k_base"
)

// ErrUnknownEncoding reports an encoding whose tables are not embedded.
var ErrUnknownEncoding = errors.New("tokens: unknown encoding")

// Counter counts tokens with one shared encoder. It is safe for concurrent use.
type Counter struct {
	name Encoding
	enc  *tiktoken.Tiktoken
}

type built struct {
	once sync.Once
	c    *Counter
	err  error
}

var (
	installLoader sync.Once
	encoders      = map[Encoding]*built{CL100kBase: {}, O200kBase: {}}
)

func init() {
	// tiktoken-go's loader is a package global read on first use; installing
	// it at import time means no encoder is ever built with the network one.
	installLoader.Do(func() { tiktoken.SetBpeLoader(loader.NewOfflineLoader()) })
}

// Get returns the shared counter for enc, building it on first use.
func Get(enc Encoding) (*Counter, error) {
	b, ok := encoders[enc]
	if !ok {
		return nil, fmt.Errorf("%w: %q (have %q, %q)", ErrUnknownEncoding, enc, CL100kBase, O200kBase)
	}
	b.once.Do(func() {
		t, err := tiktoken.GetEncoding(string(enc))
		if err != nil {
			b.err = fmt.Errorf("tokens: build %s: %w", enc, err)
			return
		}
		b.c = &Counter{name: enc, enc: t}
	})
	return b.c, b.err
}

// Default returns the shared cl100k_base counter. The tables are embedded,
// so it fails only if the binary is corrupt; it panics then.
func Default() *Counter {
	c, err := Get(CL100kBase)
	if err != nil {
		panic(err)
	}
	return c
}

// Count returns the number of tokens in text: exact, except in a run of
// more than maxRun bytes without white space (a base64 blob, a minified
// file), which is counted in pieces of maxRun bytes plus one token per cut.
// Byte-pair encoding takes time quadratic in a run's length — a 256 KiB
// run took a minute — and a cut changes a count by a token or so: the
// margin keeps the count from falling below the truth. Special-token
// markers such as "<|endoftext|>" are counted as ordinary text.
func (c *Counter) Count(text string) int {
	if text == "" {
		return 0
	}
	n, cuts, start := 0, 0, 0
	run := 0 // where the current run of non-space bytes began
	for i, r := range text {
		switch {
		case unicode.IsSpace(r):
			run = i + 1
		case i-run >= maxRun:
			n += len(c.enc.EncodeOrdinary(text[start:i]))
			start, run = i, i
			cuts++
		}
	}
	return n + len(c.enc.EncodeOrdinary(text[start:])) + cuts
}

// maxRun is the longest run of non-space bytes counted in one piece.
const maxRun = 512

// Func returns c.Count as an [engram.TokenCounter].
func (c *Counter) Func() engram.TokenCounter { return c.Count }

// Encoding returns the name of c's encoding.
func (c *Counter) Encoding() Encoding { return c.name }
