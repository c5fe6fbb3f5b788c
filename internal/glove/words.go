package glove

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/engram-go/engram/internal/text"
)

// clitics are the endings GloVe's tokenizer (Stanford's, PTB style) split
// off a word: "don't" → "do" "n't", "i'm" → "i" "'m".
var clitics = [...]string{"n't", "'s", "'m", "'re", "'ve", "'ll", "'d"}

// Words returns the tokens of s the way GloVe 6B was tokenised, closely
// enough for lookup: lower-cased runs of letters, digits, apostrophes and
// hyphens, with typographic apostrophes and hyphens made ASCII, quotes
// around a word dropped, clitics split off ("Caroline's" → "caroline"
// "'s"), and a hyphenated word kept whole if the table holds it
// ("well-known") and split otherwise ("sourdough-baking" → "sourdough"
// "baking"). Tokens the table lacks are returned too; clitics are among
// them, since the wink packaging dropped GloVe's apostrophe forms.
func Words(s string) []string {
	t := load()
	var out []string
	var buf [64]byte
	var spans [8]span
	for i := 0; i < len(s); {
		var run []byte
		run, i = nextRun(s, i, buf[:0])
		for _, sp := range t.split(run, spans[:0]) {
			out = append(out, string(run[sp.lo:sp.hi]))
		}
	}
	return out
}

// isStop reports whether Embed skips w: a stop word of engram's own list
// (the one the hashed embedder uses) or a clitic.
func isStop(w string) bool {
	return text.IsStop(w) || w[0] == '\'' || w == "n't"
}

// A span is a token's place in its run: run[lo:hi].
type span struct{ lo, hi int }

// nextRun appends to buf, lower-cased, the run of word characters that
// starts at or after s[i], and returns it with the index after it. The
// run is empty when s has no more words.
func nextRun(s string, i int, buf []byte) ([]byte, int) {
	run := buf
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\'' || r == '’' || r == 'ʼ':
			run = append(run, '\'')
		case r == '-' || r == '‐' || r == '‑':
			run = append(run, '-')
		case r == utf8.RuneError:
			if len(run) > 0 {
				return run, i
			}
		case r < utf8.RuneSelf && ('a' <= r && r <= 'z' || '0' <= r && r <= '9'):
			run = append(run, byte(r))
		case r < utf8.RuneSelf && 'A' <= r && r <= 'Z':
			run = append(run, byte(r+'a'-'A'))
		case r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mark, r)):
			run = utf8.AppendRune(run, unicode.ToLower(r))
		default:
			if len(run) > 0 {
				return run, i
			}
		}
	}
	return run, i
}

// split appends to out the tokens of one run: quotes and stray hyphens
// trimmed, a clitic split off, then inner apostrophes and hyphens split
// unless the table knows the word whole.
func (t *table) split(run []byte, out []span) []span {
	lo, hi := trim(run, 0, len(run))
	if lo == hi {
		return out
	}
	clitic := span{hi, hi}
	for _, c := range clitics {
		if hi-lo > len(c) && string(run[hi-len(c):hi]) == c {
			clitic.lo, hi = hi-len(c), hi-len(c)
			break
		}
	}
	// Inner apostrophes ("o'neill") are GloVe's only if it knows the word.
	if w := run[lo:hi]; bytes.IndexByte(w, '\'') < 0 || t.known(w) {
		out = t.hyphenated(run, lo, hi, out)
	} else {
		for i := lo; i <= hi; i++ {
			if i == hi || run[i] == '\'' {
				out = t.hyphenated(run, lo, i, out)
				lo = i + 1
			}
		}
	}
	if clitic.lo < clitic.hi {
		out = append(out, clitic)
	}
	return out
}

// hyphenated appends run[lo:hi], trimmed, whole if the table knows it or
// it has no hyphen, else its parts.
func (t *table) hyphenated(run []byte, lo, hi int, out []span) []span {
	lo, hi = trim(run, lo, hi)
	if lo == hi {
		return out
	}
	if w := run[lo:hi]; bytes.IndexByte(w, '-') < 0 || t.known(w) {
		return append(out, span{lo, hi})
	}
	for i := lo; i <= hi; i++ {
		if i == hi || run[i] == '-' {
			if i > lo {
				out = append(out, span{lo, i})
			}
			lo = i + 1
		}
	}
	return out
}

func (t *table) known(w []byte) bool {
	_, ok := lookup(t, w)
	return ok
}

// trim narrows run[lo:hi] past apostrophes and hyphens at either end.
func trim(run []byte, lo, hi int) (int, int) {
	for lo < hi && (run[lo] == '\'' || run[lo] == '-') {
		lo++
	}
	for hi > lo && (run[hi-1] == '\'' || run[hi-1] == '-') {
		hi--
	}
	return lo, hi
}
