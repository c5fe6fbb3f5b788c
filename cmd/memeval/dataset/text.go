package dataset

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// pick returns a uniformly chosen element of xs, which must not be empty.
func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// chance reports true with probability p.
func chance(r *rand.Rand, p float64) bool { return r.Float64() < p }

// deck hands out the values of a pool without repeats, so two people in
// one conversation never share a name, a city or a breed.
type deck[T any] struct{ items []T }

func newDeck[T any](r *rand.Rand, pool []T) *deck[T] {
	items := slices.Clone(pool)
	r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	return &deck[T]{items}
}

func (d *deck[T]) draw() (T, bool) {
	var zero T
	if len(d.items) == 0 {
		return zero, false
	}
	v := d.items[len(d.items)-1]
	d.items = d.items[:len(d.items)-1]
	return v, true
}

// fill replaces {key} placeholders; kv alternates keys (without braces)
// and values.
func fill(tmpl string, kv ...string) string {
	pairs := make([]string, 0, len(kv))
	for i := 0; i+1 < len(kv); i += 2 {
		pairs = append(pairs, "{"+kv[i]+"}", kv[i+1])
	}
	return strings.NewReplacer(pairs...).Replace(tmpl)
}

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// article returns "a" or "an" for the word w.
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiouAEIOU", rune(w[0])) {
		return "an"
	}
	return "a"
}

// ordinal returns "21st", "34th" and so on.
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// sentence joins clauses into one turn, capitalised and punctuated.
func sentence(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		p = capitalize(p)
		b.WriteString(p)
		if !strings.ContainsRune(".!?", rune(p[len(p)-1])) {
			b.WriteByte('.')
		}
	}
	return b.String()
}
