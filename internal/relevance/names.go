package relevance

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/engram-go/engram/internal/lexicon"
	"github.com/engram-go/engram/internal/text"
)

// Names returns the stemmed names a stored text mentions: capitalised words
// that are not stop words, and, at the start of a sentence where capitals
// say nothing, only those the dictionary does not know ("Freya moved", not
// "Random, but"). The result has no duplicates.
func Names(s string) []string { return names(text.Split(s), true) }

// NamesIn is [Names] of a text already split (text.Split).
func NamesIn(words []text.Word) []string { return names(words, true) }

func names(words []text.Word, strict bool) []string {
	var out []string
	seen := make(map[string]bool) // out as a set: a long text names many
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w.Raw)
		if !unicode.IsUpper(r) || len(w.Raw) < 2 || strings.ToUpper(w.Raw) == w.Raw {
			continue
		}
		n := w.Norm
		if i := strings.IndexAny(n, "'’"); i > 0 {
			n = n[:i]
		}
		if text.IsStop(n) || questionWords[n] {
			continue
		}
		stem := text.Stem(n)
		if strict && w.SentenceStart && lexicon.Concepts(stem) != nil {
			continue
		}
		if !seen[stem] {
			seen[stem] = true
			out = append(out, stem)
		}
	}
	return out
}

var questionWords = map[string]bool{"which": true, "whose": true, "would": true, "could": true,
	"should": true, "did": true, "does": true, "is": true, "are": true, "was": true, "were": true,
	"has": true, "have": true, "had": true, "can": true, "will": true, "name": true, "tell": true}
