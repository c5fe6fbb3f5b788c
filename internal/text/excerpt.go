package text

import "unicode/utf8"

// MaxAnalysed is how many bytes of a message the memories analyse: a
// message's words, flags, names, facts and vector come from its first
// MaxAnalysed bytes ([Excerpt]), while its tokens are counted whole. A
// conversation's messages are far shorter; a tool result of megabytes
// then costs time linear in its size to save, and no more to analyse than
// its beginning.
const MaxAnalysed = 64 << 10

// Excerpt returns what of s the memories analyse: s itself up to
// MaxAnalysed bytes, else its first MaxAnalysed bytes or fewer, cut
// before a whole character.
func Excerpt(s string) string {
	if len(s) <= MaxAnalysed {
		return s
	}
	i := MaxAnalysed
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}
