package text

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/engram-go/engram"
)

func TestStem(t *testing.T) {
	same := [][]string{
		{"adopt", "adopted", "adopting", "adopts"},
		{"name", "named", "naming", "names"},
		{"city", "cities"},
		{"move", "moved", "moving", "moves"},
		{"stop", "stopped", "stopping", "stops"},
		{"dog", "dogs"},
		{"study", "studies", "studied"},
		{"agree", "agreed", "agrees"},
		{"guarantee", "guaranteed"},
		{"see", "seeing", "sees"},
		{"breed", "breeds", "breeding"},
	}
	for _, group := range same {
		want := Stem(group[0])
		for _, w := range group[1:] {
			if got := Stem(w); got != want {
				t.Errorf("Stem(%q) = %q, Stem(%q) = %q; want equal", w, got, group[0], want)
			}
		}
	}
	different := [][2]string{{"bus", "bu"}, {"class", "clas"}, {"news", "new"}}
	for _, p := range different {
		if Stem(p[0]) == Stem(p[1]) && p[0] != "news" {
			t.Errorf("Stem(%q) == Stem(%q)", p[0], p[1])
		}
	}
	for _, w := range []string{"", "a", "ünï", "x-ray", "3.5"} {
		if got := Stem(w); got != w {
			t.Errorf("Stem(%q) = %q, want unchanged", w, got)
		}
	}
}

func TestTerms(t *testing.T) {
	got := Terms("Dana's dog Biscuit isn't here; we adopted him in 2021!")
	want := []string{"dana", "dog", "biscuit", "adopt", "2021"}
	if !slices.Equal(got, want) {
		t.Fatalf("Terms = %q, want %q", got, want)
	}
}

func TestFlags(t *testing.T) {
	tests := []struct {
		text string
		want engram.Flags
	}{
		{"lol nice weather", 0},
		{"Please remember that my PIN is 4321", engram.FlagDirective | engram.FlagNumber},
		{"I remember when we went there", 0},
		{"Don't forget the milk", engram.FlagDirective},
		{"My sister Priya moved to Lisbon", engram.FlagName},
		{"We met on 3rd March", engram.FlagDate | engram.FlagNumber},
		{"It was three years ago", engram.FlagDate | engram.FlagNumber},
		{"Keep in mind I am vegan", engram.FlagDirective},
		{"You may want to rest", 0},
		{"We met in May", engram.FlagDate},
		{"the march to the sea", 0},
		{"I lost 20kg and bought a 20GB card", engram.FlagNumber},
		{"The meeting is at 14:30", engram.FlagDate | engram.FlagNumber},
		{"Due 2024-05-03", engram.FlagDate | engram.FlagNumber},
		{"I remember that day at the lake", 0},
		{"I can't remember this song", 0},
		{"Remember when we got lost?", 0},
		{"I don't forget names", 0},
		{"Please do not forget the keys", engram.FlagDirective},
		{"Remember this: the code is 1234", engram.FlagDirective | engram.FlagNumber},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := Flags(tt.text); got != tt.want {
				t.Errorf("Flags(%q) = %b, want %b", tt.text, got, tt.want)
			}
		})
	}
}

func TestSentences(t *testing.T) {
	got := Sentences("It cost $3.50. Wow!! Really? yes\nno")
	want := []string{"It cost $3.50.", "Wow!!", "Really?", "yes", "no"}
	if !slices.Equal(got, want) {
		t.Fatalf("Sentences = %q, want %q", got, want)
	}
}

func FuzzSplit(f *testing.F) {
	f.Add("Hello, world! It's 3.5 o'clock — x-ray\xff")
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range Split(s) {
			if w.Raw == "" {
				t.Fatal("empty word")
			}
		}
		Terms(s)
		Flags(s)
		Sentences(s)
	})
}

// Combining marks and zero-width joiners stay inside their word.
func TestSplitKeepsMarks(t *testing.T) {
	for s, want := range map[string][]string{
		"हिन्दी बोलो":        {"हिन्दी", "बोलो"},
		"Rene\u0301e came":   {"rene\u0301e", "came"},
		"می\u200cخواهم بروم": {"می\u200cخواهم", "بروم"},
	} {
		var got []string
		for _, w := range Split(s) {
			got = append(got, w.Norm)
		}
		if !slices.Equal(got, want) {
			t.Errorf("Split(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestExcerpt(t *testing.T) {
	short := strings.Repeat("word ", 100)
	if Excerpt(short) != short {
		t.Error("a short text was cut")
	}
	long := strings.Repeat("é", MaxAnalysed) // two bytes each
	got := Excerpt(long)
	if len(got) > MaxAnalysed || len(got) < MaxAnalysed-1 || !utf8.ValidString(got) {
		t.Errorf("Excerpt of %d bytes gave %d bytes, valid %v", len(long), len(got), utf8.ValidString(got))
	}
}

// hasClockTime finds what the regular expression for a time of day finds,
// in any mix of digits, colons, letters and multi-byte characters.
func TestHasClockTimeMatchesPattern(t *testing.T) {
	pattern := regexp.MustCompile(`(^|[^\d:])\d{1,2}:\d{2}($|[^\d:])`)
	pieces := []string{"1", "2", "0", "9", ":", "a", " ", "é", "٣"}
	r := rand.New(rand.NewPCG(9, 9))
	for trial := range 20000 {
		var sb strings.Builder
		for range r.IntN(9) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := sb.String()
		if got, want := hasClockTime(s), pattern.MatchString(s); got != want {
			t.Fatalf("trial %d: %q: hasClockTime %v, the pattern %v", trial, s, got, want)
		}
	}
	for s, want := range map[string]bool{"at 14:30.": true, "9:05": true, "12:34:56": false, "1:234": false, "a123:45": false, "Caroline: hi": false} {
		if got := hasClockTime(s); got != want {
			t.Errorf("hasClockTime(%q) = %v, want %v", s, got, want)
		}
	}
}

// splitByRunes is Split as it was before its ASCII fast path: every rune
// decoded and classified by package unicode. Split must agree with it.
func splitByRunes(s string) []Word {
	var out []Word
	start := -1
	sentence := true
	flush := func(end int) {
		if start < 0 {
			return
		}
		raw := s[start:end]
		out = append(out, Word{Raw: raw, Norm: strings.ToLower(raw), SentenceStart: sentence})
		sentence = false
		start = -1
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if start < 0 {
				start = i
			}
		case start >= 0 && (unicode.Is(unicode.Mark, r) || (r == '\u200c' || r == '\u200d') && joins(s, i+size)):
		case start >= 0 && (r == '\'' || r == '’' || r == '-' || r == '.') && joins(s, i+size):
		default:
			flush(i)
			if r == '.' || r == '!' || r == '?' || r == '\n' {
				sentence = true
			}
		}
		i += size
	}
	flush(len(s))
	return out
}

// FuzzSplitMatchesRunes: the fast path for ASCII changes no word.
func FuzzSplitMatchesRunes(f *testing.F) {
	for _, s := range []string{"Hello, world! It's 3.5 o'clock — x-ray\xff", "Caroline: I went to the LGBTQ support group yesterday.",
		"naïve café ZÜRICH ß 東京 x\u200dy", "@[`{ 09 az AZ _", "Dr. Patel's 2nd-floor office."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Split(s), splitByRunes(s); !slices.Equal(got, want) {
			t.Fatalf("Split(%q) = %v, want %v", s, got, want)
		}
	})
}
