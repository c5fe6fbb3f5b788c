package glove

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// rowWords returns the table's words in row order, most frequent first.
func rowWords(tb *table) []string {
	words := make([]string, len(tb.rank))
	for i := range words {
		words[i] = tb.word(int32(i))
	}
	return words
}

// sentences returns n deterministic lines of table words, some capitalised
// or punctuated, so that an embedding sums many vectors.
func sentences(words []string, n int) []string {
	rng := rand.New(rand.NewPCG(7, 11))
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for k := range 3 + rng.IntN(20) {
			if k > 0 {
				b.WriteString([]string{" ", " ", ", ", " - ", "! "}[rng.IntN(5)])
			}
			// Mostly frequent words, as in dialogue, some rare.
			w := words[min(len(words)-1, int(rng.ExpFloat64()*3000))]
			if rng.IntN(8) == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
		}
		out[i] = b.String()
	}
	return out
}

// digest hashes the bits of float32s.
type digest struct{ h uint64 }

func (d *digest) add(v []float32) {
	f := fnv.New64a()
	var b [4]byte
	for _, x := range v {
		u := math.Float32bits(x)
		b[0], b[1], b[2], b[3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
		f.Write(b[:])
	}
	d.h = d.h*31 + f.Sum64()
}

// The vectors and embeddings are pinned to the bit: however the table is
// held in memory, every word's vector and the embeddings of every word and
// of 20,000 generated lines stay what they were when recall was measured.
func TestBitsPinned(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("digests taken on amd64; other architectures may fuse multiply-adds")
	}
	words := rowWords(load())
	var vecs, single, lines digest
	for _, w := range words {
		v, ok := Vector(w)
		if !ok {
			t.Fatalf("Vector(%q) missing", w)
		}
		vecs.add(v[:])
		single.add(Embed(nil, w))
	}
	for _, s := range sentences(words, 20000) {
		lines.add(Embed(nil, s))
	}
	for _, tc := range []struct {
		name      string
		got, want uint64
	}{
		{"vectors", vecs.h, 0x9b757e97765cd373},
		{"one-word embeddings", single.h, 0x39cb8ed971f7685a},
		{"sentence embeddings", lines.h, 0x5e93969042da12ff},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: digest %#x, want %#x", tc.name, tc.got, tc.want)
		}
	}
}
