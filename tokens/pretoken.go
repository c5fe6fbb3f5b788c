package tokens

import (
	"unicode"
	"unicode/utf8"
)

// The pre-tokenizers below cut text into the pieces tiktoken's regular
// expressions match, one piece at a time, without a regular-expression
// engine. Each returns the end of the piece that starts at i (i < len(s));
// s must be valid UTF-8. They follow the leftmost-first, backtracking
// semantics of the patterns as tiktoken-go compiles them (regexp2): \s is
// unicode.IsSpace, \p{…} are Go's Unicode tables, and (?i) compares
// unicode.ToLower of the input. Every rune starts some alternative, so the
// pieces tile the text. Each piece is found in time linear in its length
// (a failed alternative scans at most the run a later one consumes), so a
// text of any length is cut in linear time.
//
// cl100k_base:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//	 ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// o200k_base:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|…|'d)?|
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|…|'d)?|
//	\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+

// splitter returns the end of the piece of s that starts at i.
type splitter func(s string, i int) int

// runeAt decodes the rune at i, or returns (-1, 0) at the end of s.
func runeAt(s string, i int) (rune, int) {
	if i >= len(s) {
		return -1, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func isL(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isN(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsNumber(r)
}

func isS(r rune) bool { return r >= 0 && unicode.IsSpace(r) }

func isCRLF(r rune) bool { return r == '\r' || r == '\n' }

// isOther reports [^\s\p{L}\p{N}].
func isOther(r rune) bool { return r >= 0 && !isS(r) && !isL(r) && !isN(r) }

// isPrefix reports [^\r\n\p{L}\p{N}].
func isPrefix(r rune) bool { return r >= 0 && !isCRLF(r) && !isL(r) && !isN(r) }

// isUpper reports o200k's [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}].
func isUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M)
}

// isLower reports o200k's [\p{Ll}\p{Lm}\p{Lo}\p{M}].
func isLower(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)
}

// runOf returns the end of the run of runes from i that satisfy in.
func runOf(s string, i int, in func(rune) bool) int {
	for i < len(s) {
		r, w := runeAt(s, i)
		if !in(r) {
			break
		}
		i += w
	}
	return i
}

// contraction returns the end of (?i:'s|'t|'re|'ve|'m|'ll|'d) at i, or -1.
func contraction(s string, i int) int {
	if i >= len(s) || s[i] != '\'' {
		return -1
	}
	a, wa := runeAt(s, i+1)
	switch unicode.ToLower(a) {
	case 's', 't', 'm', 'd':
		return i + 1 + wa
	}
	b, wb := runeAt(s, i+1+wa)
	la, lb := unicode.ToLower(a), unicode.ToLower(b)
	if la == 'r' && lb == 'e' || la == 'v' && lb == 'e' || la == 'l' && lb == 'l' {
		return i + 1 + wa + wb
	}
	return -1
}

// punct matches " ?[^\s\p{L}\p{N}]+" followed by any runes in tail, or -1.
func punct(s string, i int, tail func(rune) bool) int {
	j := i
	if s[j] == ' ' {
		if r, _ := runeAt(s, j+1); isOther(r) {
			j++
		}
	}
	if r, _ := runeAt(s, j); !isOther(r) {
		return -1
	}
	return runOf(s, runOf(s, j, isOther), tail)
}

// space matches \s*[\r\n]+|\s+(?!\S)|\s+ at i, where s[i] is white space.
func space(s string, i int) int {
	j := runOf(s, i, isS)
	// \s*[\r\n]+ gives back white space up to the last line break.
	for k := j; k > i; {
		r, w := utf8.DecodeLastRuneInString(s[:k])
		if isCRLF(r) {
			return k
		}
		k -= w
	}
	if j == len(s) {
		return j // \s+(?!\S) at the end
	}
	// \s+(?!\S) gives back the last white space before a visible rune;
	// \s+ takes a single one.
	_, w := utf8.DecodeLastRuneInString(s[:j])
	if j-w > i {
		return j - w
	}
	return j
}

func isCRLFSlash(r rune) bool { return r == '\r' || r == '\n' || r == '/' }

// splitCL100k cuts pieces the way cl100k_base's pattern does.
func splitCL100k(s string, i int) int {
	if e := contraction(s, i); e >= 0 {
		return e
	}
	r, w := runeAt(s, i)
	switch {
	case isL(r):
		return runOf(s, i+w, isL)
	case isPrefix(r):
		if r2, _ := runeAt(s, i+w); isL(r2) {
			return runOf(s, i+w, isL)
		}
	case isN(r):
		return digits(s, i+w)
	}
	if e := punct(s, i, isCRLF); e >= 0 {
		return e
	}
	return space(s, i)
}

// splitO200k cuts pieces the way o200k_base's pattern does.
func splitO200k(s string, i int) int {
	r, w := runeAt(s, i)
	starts := []int{i}
	if isPrefix(r) {
		starts = []int{i + w, i} // the optional prefix is tried first
	}
	// [Upper]*[Lower]+: Upper* is greedy and gives back runes until Lower+
	// can start.
	for _, p := range starts {
		e := runOf(s, p, isUpper)
		if r2, _ := runeAt(s, e); isLower(r2) {
			return o200kTail(s, runOf(s, e, isLower))
		}
		for k := e; k > p; {
			r2, w2 := utf8.DecodeLastRuneInString(s[:k])
			k -= w2
			if isLower(r2) {
				// The runes after k are not Lower, so Lower+ takes one.
				return o200kTail(s, k+w2)
			}
		}
	}
	// [Upper]+[Lower]*
	for _, p := range starts {
		if e := runOf(s, p, isUpper); e > p {
			return o200kTail(s, runOf(s, e, isLower))
		}
	}
	if isN(r) {
		return digits(s, i+w)
	}
	if e := punct(s, i, isCRLFSlash); e >= 0 {
		return e
	}
	return space(s, i)
}

// digits ends a run of numbers (\p{N}{1,3}) whose first rune ends at j:
// up to two more.
func digits(s string, j int) int {
	for range 2 {
		r, w := runeAt(s, j)
		if !isN(r) {
			break
		}
		j += w
	}
	return j
}

// o200kTail takes the optional contraction at the end of a word.
func o200kTail(s string, e int) int {
	if c := contraction(s, e); c >= 0 {
		return c
	}
	return e
}
