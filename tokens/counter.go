package tokens

import (
	"errors"
	"fmt"
	"sync"
	"unicode/utf8"

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

// Counter counts tokens with one shared encoding table. It is safe for
// concurrent use.
type Counter struct {
	name  Encoding
	ranks map[string]int // token bytes to rank, as tiktoken's tables give them
	pairs []int32        // the rank of each two-byte token, by its bytes (a<<8 | b); noPair if none
	split splitter
}

type built struct {
	once sync.Once
	c    *Counter
	err  error
}

var (
	installLoader sync.Once
	encoders      = map[Encoding]*built{CL100kBase: {}, O200kBase: {}}
	splitters     = map[Encoding]splitter{CL100kBase: splitCL100k, O200kBase: splitO200k}
)

// tableURL is the name tiktoken-go's loaders know an encoding's table by.
func tableURL(enc Encoding) string {
	return "https://openaipublic.blob.core.windows.net/encodings/" + string(enc) + ".tiktoken"
}

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
		ranks, err := loader.NewOfflineLoader().LoadTiktokenBpe(tableURL(enc))
		if err != nil {
			b.err = fmt.Errorf("tokens: build %s: %w", enc, err)
			return
		}
		b.c = &Counter{name: enc, ranks: ranks, pairs: pairRanks(ranks), split: splitters[enc]}
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

// Count returns the number of tokens in text, exactly as tiktoken-go's
// EncodeOrdinary counts them: special-token markers such as
// "<|endoftext|>" are ordinary text, and each invalid UTF-8 byte counts as
// U+FFFD. The text is cut where the encoding's pre-tokenizer cuts it, and
// a piece of any length is merged in n log n time, so a 256 KiB run
// without white space takes milliseconds, not the minute tiktoken-go's
// quadratic merge loop takes.
func (c *Counter) Count(text string) int {
	if !utf8.ValidString(text) {
		text = string([]rune(text))
	}
	n := 0
	for i := 0; i < len(text); {
		j := c.split(text, i)
		n += c.pieceTokens(text[i:j])
		i = j
	}
	return n
}

// Func returns c.Count as an [engram.TokenCounter].
func (c *Counter) Func() engram.TokenCounter { return c.Count }

// Encoding returns the name of c's encoding.
func (c *Counter) Encoding() Encoding { return c.name }
