package lexicon

import "math"

//go:generate go run ./internal/gen -wordnet /usr/share/wordnet -o table.bin.gz

// Concept is one weighted concept of a word: a WordNet synset, a hypernym
// of one, or a derivationally related synset.
type Concept struct {
	// ID names the synset. IDs are dense, stable for a given table and
	// meaningless across regenerations from a different WordNet.
	ID uint32
	// Weight is the concept's share of the word's meaning, in (0,1].
	Weight float32
}

// MaxConcepts bounds the length of the slice [Concepts] returns.
const MaxConcepts = 8

// Concepts returns the concepts of stem, heaviest first (ties by ID), or nil
// if the table does not know it. The key is a stem as [text.Stem] makes it
// from a lower-cased word — what [text.Terms] returns: "children", "child"
// and "kids" all work; "Baking" does not, "bak" does.
//
// The weights form a vector whose Euclidean norm is the word's confidence:
// 1 for a word with one clear sense, less for vague, many-sensed ones
// ("time" ≈ 0.25). The slice is shared: do not modify it.
//
// [text.Stem]: github.com/engram-go/engram/internal/text.Stem
// [text.Terms]: github.com/engram-go/engram/internal/text.Terms
func Concepts(stem string) []Concept {
	t := load()
	i, ok := t.index[stem]
	if !ok {
		return nil
	}
	return t.concepts(i)
}

// Similarity returns the cosine of the concept vectors of two stems, in
// [0,1]: 1 for synonyms with one sense each ("sofa", "couch"), about half
// for a word and its hypernym, little for words that share only a distant
// ancestor, and 0 when either stem is unknown. Like [Concepts] it takes
// stems, not words.
func Similarity(a, b string) float64 {
	ca, cb := Concepts(a), Concepts(b)
	if len(ca) == 0 || len(cb) == 0 {
		return 0
	}
	var dot, na, nb float64
	for _, x := range ca {
		na += float64(x.Weight) * float64(x.Weight)
		for _, y := range cb {
			if x.ID == y.ID {
				dot += float64(x.Weight) * float64(y.Weight)
			}
		}
	}
	for _, y := range cb {
		nb += float64(y.Weight) * float64(y.Weight)
	}
	return math.Min(1, dot/math.Sqrt(na*nb))
}
