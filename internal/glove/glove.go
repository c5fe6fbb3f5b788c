package glove

//go:generate go run ./internal/gen -json $ENGRAM_GLOVE_JSON -o table.bin

// Dim is the length of every vector.
const Dim = 100

// SIF weighting (Arora, Liang and Ma, "A Simple but Tough-to-Beat Baseline
// for Sentence Embeddings", ICLR 2017): a word of probability p weighs
// sifA/(sifA+p). The paper finds a between 1e-4 and 1e-3 works across
// tasks; at 1e-4 a word of rank 100 weighs about 0.1, one of rank 1,000
// about 0.6 and one of rank 10,000 about 0.93, which is what chat needs:
// "know", "going", "great" fade, "beagle" and "sourdough" carry the line.
const sifA = 1e-4

// GloVe 6B's corpus counts are not published with the vectors, so a
// word's probability is estimated from its rank r by Zipf's law over the
// whole vocabulary of 400,000 words: p(r) = 1 / ((r+1) · H), where H is
// the harmonic number Σ 1/k for k ≤ 400,000. internal/gen uses the same
// constants to find the common direction.
const harmonic = 13.47643674099113

// weightOfRank is the SIF weight of the word of frequency rank r.
func weightOfRank(r int) float64 {
	p := 1 / (float64(r+1) * harmonic)
	return sifA / (sifA + p)
}

// Vector returns the vector of a lower-case word, as [Words] produces
// them, and whether the table holds it. Its components are GloVe's to
// within int8 quantization (mean cosine 0.99998 with the originals, the
// worst word 0.9999), decoded from the table on each call.
func Vector(word string) (v [Dim]float32, ok bool) {
	t := load()
	i, ok := lookup(t, word)
	if !ok {
		return v, false
	}
	t.vector(i, &v)
	return v, true
}

// Rank returns the position of a lower-case word in GloVe's vocabulary,
// most frequent first ("the" is 0), and whether the table holds it.
func Rank(word string) (int, bool) {
	t := load()
	i, ok := lookup(t, word)
	if !ok {
		return 0, false
	}
	return int(t.rank[i]), true
}

// Weight returns the SIF weight a/(a+p(w)) of a lower-case word, in (0,1):
// near 0 for "the", near 1 for rare words. a is 1e-4 and p(w) is estimated
// from the word's rank r by Zipf's law, p = 1/((r+1)·H) with H the
// harmonic number of GloVe's 400,000-word vocabulary. A word the table
// does not hold weighs what its rarest word does.
func Weight(word string) float64 {
	r, ok := Rank(word)
	if !ok {
		r = load().maxRank
	}
	return weightOfRank(r)
}
