package glove

import "math"

// Embed appends to dst the embedding of s, Dim components, and returns the
// extended slice: the SIF-weighted mean of the vectors of s's words (see
// [Words] and [Weight]) that the table holds and that are not stop words
// (engram's stop list, which the hashed embedder also uses, and clitics),
// less its projection on the common direction every such mean shares,
// scaled to unit length. It appends Dim zeros if no word counts. The same
// text gives the same bits every time; with room in dst it does not
// allocate.
func Embed(dst []float32, s string) []float32 {
	t := load()
	var acc [Dim]float64
	var buf [64]byte
	var spans [8]span
	for i := 0; i < len(s); {
		var run []byte
		run, i = nextRun(s, i, buf[:0])
		for _, sp := range t.split(run, spans[:0]) {
			k, ok := lookup(t, run[sp.lo:sp.hi])
			if !ok || t.weight[k] == 0 {
				continue
			}
			// Straight from the int8 components, each rounded to
			// float32 as Vector gives it, so the sum is Vector's.
			w, s, q := float64(t.weight[k]), t.scale(k), t.row(k)
			for j := range acc {
				acc[j] += w * float64(int8Float[q[j]]*s)
			}
		}
	}
	var d float64
	for j, x := range acc {
		d += x * t.common[j]
	}
	var n float64
	for j := range acc {
		acc[j] -= d * t.common[j]
		n += acc[j] * acc[j]
	}
	if n > 0 {
		n = 1 / math.Sqrt(n)
	}
	for _, x := range acc {
		dst = append(dst, float32(x*n))
	}
	return dst
}
