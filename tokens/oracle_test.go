package tokens

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go"
	"pgregory.net/rapid"
)

// oracle returns tiktoken-go's own count for enc. Its merge loop is
// quadratic, so the texts given to it stay short.
func oracle(t testing.TB, enc Encoding) func(string) int {
	t.Helper()
	e, err := tiktoken.GetEncoding(string(enc))
	if err != nil {
		t.Fatal(err)
	}
	return func(s string) int { return len(e.EncodeOrdinary(s)) }
}

// alphabet is what the property test builds texts from: digits of several
// scripts (a past undercount mixed ASCII and Arabic-Indic ones),
// letters of several scripts and cases, combining marks, the white space
// the patterns treat specially, punctuation, emoji, contractions and
// special-token markers.
var alphabet = []string{
	"0", "1", "9", "٣", "٠", "۵", "४", "١٢٣", "½", "²", "Ⅻ",
	"a", "Z", "é", "ß", "Ж", "ж", "α", "Ω", "日", "本", "ا", "ש", "ก", "ǅ", "ʰ", "\u0301", "\u093F",
	" ", "  ", "\t", "\n", "\r", "\r\n", "\v", "\f", "\u00A0", "\u0085", "\u2028", "\u3000",
	".", ",", "!", "?", "'", "\"", "-", "_", "/", "(", ")", "<|endoftext|>", "...",
	"'s", "'S", "'re", "'LL", "'ve", "'d", "'m", "'t",
	"😀", "👍🏽", "🇵🇹", "\u200D", "\uFFFD", "\xff",
	"the", " the", "Hello", " World", "HTTPServer", "don't", "1400", "3.14",
}

// randomText draws a string of pieces from alphabet, with now and then a
// long run of one piece.
func randomText(t *rapid.T) string {
	parts := rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 60).Draw(t, "parts")
	var sb strings.Builder
	for _, p := range parts {
		sb.WriteString(p)
	}
	if rapid.IntRange(0, 3).Draw(t, "long") == 0 {
		unit := rapid.SliceOfN(rapid.SampledFrom(alphabet), 1, 3).Draw(t, "unit")
		n := rapid.IntRange(50, 400).Draw(t, "repeat")
		at := rapid.IntRange(0, sb.Len()).Draw(t, "at")
		s := sb.String()
		return s[:at] + strings.Repeat(strings.Join(unit, ""), n) + s[at:]
	}
	return sb.String()
}

func TestCountMatchesTiktoken(t *testing.T) {
	for _, enc := range []Encoding{CL100kBase, O200kBase} {
		t.Run(string(enc), func(t *testing.T) {
			c, err := Get(enc)
			if err != nil {
				t.Fatal(err)
			}
			want := oracle(t, enc)
			rapid.Check(t, func(t *rapid.T) {
				s := randomText(t)
				if got, exact := c.Count(s), want(s); got != exact {
					t.Fatalf("Count(%q) = %d, tiktoken %d", s, got, exact)
				}
			})
		})
	}
}

// Any runes at all, not just the alphabet's.
func TestCountMatchesTiktokenAnyRunes(t *testing.T) {
	c := Default()
	want := oracle(t, CL100kBase)
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		if got, exact := c.Count(s), want(s); got != exact {
			t.Fatalf("Count(%q) = %d, tiktoken %d", s, got, exact)
		}
	})
}

// The pieces tile the text, whatever it holds.
func FuzzSplit(f *testing.F) {
	for _, s := range alphabet {
		f.Add(s + " x")
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			s = string([]rune(s))
		}
		for _, split := range []splitter{splitCL100k, splitO200k} {
			for i := 0; i < len(s); {
				j := split(s, i)
				if j <= i || j > len(s) || !utf8.RuneStart(s[min(j, len(s)-1)]) && j < len(s) {
					t.Fatalf("%q: piece at %d ends at %d", s, i, j)
				}
				i = j
			}
		}
	})
}
