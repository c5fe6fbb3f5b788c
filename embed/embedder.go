package embed

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/glove"
	"github.com/engram-go/engram/internal/lexicon"
	"github.com/engram-go/engram/internal/text"
	"github.com/tmc/langchaingo/embeddings"
)

// DefaultDimensions is the size of the hashed part of the vector unless
// [WithDimensions] says otherwise. The GloVe part adds [GloVeDimensions].
const DefaultDimensions = 512

// GloVeDimensions is the size of the GloVe part of the vector, present
// when the GloVe share is above 0.
const GloVeDimensions = glove.Dim

// DefaultGloVeShare is the weight of the GloVe part in the cosine of two
// embeddings unless [WithGloVeShare] says otherwise. It is 1: GloVe alone,
// [GloVeDimensions] long. On real dialogue (LoCoMo's development
// conversations, README) the hashed part added nothing beside GloVe at
// shares 0.5 and 0.8, and it costs six times the dimensions.
const DefaultGloVeShare = 1.0

// Feature weights: whole words carry most of the meaning, neighbouring pairs
// some order, character grams the morphology the stemmer misses.
const (
	wordWeight   = 1.0
	bigramWeight = 0.5
	gramWeight   = 0.35 // shared by all of a word's grams
	gramSize     = 4
	// conceptWeight scales a word's WordNet concepts (internal/lexicon),
	// whose vector has the word's confidence as its length, so "dad" meets
	// "father" and "kids" meets "children".
	conceptWeight = 0.6
)

// Embedder turns text into unit vectors. It is safe for concurrent use.
// The zero Embedder uses the defaults.
type Embedder struct {
	dim int // of the hashed part; 0 means DefaultDimensions
	// share is the GloVe share; meaningful only when shareSet, so that the
	// zero Embedder has the default.
	share    float64
	shareSet bool
}

var _ embeddings.Embedder = (*Embedder)(nil)

// Option configures an [Embedder].
type Option func(*Embedder)

// WithDimensions sets the size of the hashed part. Default [DefaultDimensions]; must be
// at least 16. More dimensions mean fewer hash collisions and more memory.
func WithDimensions(n int) Option { return func(e *Embedder) { e.dim = n } }

// WithGloVeShare sets w, the weight of the GloVe part in the cosine of two
// embeddings: cos = w·cos_glove + (1−w)·cos_hashed. Default
// [DefaultGloVeShare]; must be in [0,1]. 0 leaves the GloVe part out (the
// vector is the hashed part alone, as before GloVe was added). Beside
// GloVe (0 < w < 1) the hashed part leaves out WordNet concepts.
func WithGloVeShare(w float64) Option {
	return func(e *Embedder) { e.share, e.shareSet = w, true }
}

// New returns an offline embedder.
func New(opts ...Option) (*Embedder, error) {
	e := &Embedder{dim: DefaultDimensions}
	for _, o := range opts {
		o(e)
	}
	if e.dim < 16 {
		return nil, fmt.Errorf("embed: dimensions %d < 16: %w", e.dim, engram.ErrInvalidOption)
	}
	if w := e.gloveShare(); !(w >= 0 && w <= 1) {
		return nil, fmt.Errorf("embed: GloVe share %v not in [0,1]: %w", w, engram.ErrInvalidOption)
	}
	return e, nil
}

// Dimensions returns the vector size: the hashed part's, plus
// [GloVeDimensions] when the GloVe share is above 0; [GloVeDimensions]
// alone when it is 1.
func (e *Embedder) Dimensions() int {
	switch e.gloveShare() {
	case 0:
		return e.hashDim()
	case 1:
		return GloVeDimensions
	}
	return GloVeDimensions + e.hashDim()
}

func (e *Embedder) hashDim() int {
	if e.dim == 0 {
		return DefaultDimensions
	}
	return e.dim
}

// GloVePart returns the GloVe part of s's embedding at unit length (zero
// if s has no word GloVe knows), [GloVeDimensions] long: with a GloVe share
// above 0, the first components of Embed(s) divided by the share's square
// root, without computing the rest.
func (e *Embedder) GloVePart(s string) []float32 {
	return glove.Embed(make([]float32, 0, GloVeDimensions), s)
}

// GloVeShare returns the weight of the GloVe part (see [WithGloVeShare]).
// When it is above 0 the vector's first [GloVeDimensions] components are
// the GloVe part, scaled by its square root.
func (e *Embedder) GloVeShare() float64 { return e.gloveShare() }

func (e *Embedder) gloveShare() float64 {
	if !e.shareSet {
		return DefaultGloVeShare
	}
	return e.share
}

// Embed returns the unit-normalised vector of s; the zero vector when s
// has no content words. With a GloVe share w above 0 it is the GloVe
// sentence embedding scaled by √w followed by the hashed vector scaled by
// √(1−w), each of unit length first, so that the dot product of two is
// w·cos_glove + (1−w)·cos_hashed. If one part of a text is zero (no word
// GloVe knows), the other is scaled to unit length alone. With w = 1 it is
// the GloVe part alone, or for a text with no word GloVe knows the hashed
// vector at GloVe's size.
func (e *Embedder) Embed(s string) []float32 {
	w := e.gloveShare()
	switch w {
	case 0:
		return e.hashed(make([]float32, 0, e.hashDim()), s)
	case 1:
		v := glove.Embed(make([]float32, 0, GloVeDimensions), s)
		if isZero(v) {
			// Nothing GloVe knows ("Zxq!", a rare name): the hashed
			// vector at GloVe's size, so that the text still meets its
			// repeats.
			return e.hashedN(v[:0], s, GloVeDimensions)
		}
		return v
	}
	v := make([]float32, 0, e.Dimensions())
	v = glove.Embed(v, s)
	v = e.hashed(v, s)
	g, h := v[:GloVeDimensions], v[GloVeDimensions:]
	gw, hw := math.Sqrt(w), math.Sqrt(1-w)
	switch {
	case isZero(g):
		hw = 1
	case isZero(h):
		gw = 1
	}
	scale(g, gw)
	scale(h, hw)
	return v
}

// hashed appends to dst the unit-normalised hashed vector of s, or zeros.
func (e *Embedder) hashed(dst []float32, s string) []float32 { return e.hashedN(dst, s, e.hashDim()) }

// hashedN is hashed at n dimensions.
func (e *Embedder) hashedN(dst []float32, s string, dim int) []float32 {
	acc := make([]float64, dim)
	e.accumulate(acc, s)
	var n float64
	for _, x := range acc {
		n += x * x
	}
	if n == 0 {
		return append(dst, make([]float32, len(acc))...)
	}
	inv := 1 / math.Sqrt(n)
	for _, x := range acc {
		dst = append(dst, float32(x*inv))
	}
	return dst
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// scale multiplies v by k in place; 1 leaves it exactly as it is.
func scale(v []float32, k float64) {
	if k == 1 {
		return
	}
	for i, x := range v {
		v[i] = float32(float64(x) * k)
	}
}

// EmbedDocuments embeds each text. ctx is checked between texts; its error,
// returned as it is, is the only one: the caller names the operation, and a
// prefix here would say "embed" twice.
func (e *Embedder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = e.Embed(t)
	}
	return out, nil
}

// EmbedQuery embeds one text. It fails only when ctx is done, with ctx's
// error as it is, as EmbedDocuments does.
func (e *Embedder) EmbedQuery(ctx context.Context, s string) ([]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return e.Embed(s), nil
}

// accumulate adds s's hashed features into v. Beside GloVe (a share
// strictly between 0 and 1) the WordNet concepts are left out: GloVe
// carries the meaning they stood for, the hashed half the exact words,
// and the concepts were half of the embedding's cost.
func (e *Embedder) accumulate(v []float64, s string) {
	w := e.gloveShare()
	concepts := w == 0 || w == 1
	terms := text.Terms(s)
	// Features in the order they first occur, so that the sums, and the
	// vector, are the same on every call (a map's order is not). A feature
	// is known by its FNV-1a hash, taken over its parts in place: no
	// feature's name is built.
	fs := newFeatures(8 * len(terms))
	defer fs.release()
	var num [16]byte
	for i, t := range terms {
		fs.add(fnv(fnv(fnvOffset, "w:"), t), wordWeight)
		if i > 0 {
			fs.add(fnv(fnv(fnv(fnv(fnvOffset, "b:"), terms[i-1]), " "), t), bigramWeight)
		}
		// The 4-grams of "#t#"; a short word is one gram.
		g := fnv(fnvOffset, "g:")
		if n := len(t) + 2; n <= gramSize {
			fs.add(fnv(fnv(fnv(g, "#"), t), "#"), gramWeight)
		} else {
			grams := n - gramSize + 1
			for k := range grams {
				h := g
				for j := k; j < k+gramSize; j++ {
					c := byte('#')
					if j > 0 && j <= len(t) {
						c = t[j-1]
					}
					h = (h ^ uint64(c)) * fnvPrime
				}
				fs.add(h, gramWeight/float64(grams))
			}
		}
		if !concepts {
			continue
		}
		for _, c := range lexicon.Concepts(t) {
			id := strconv.AppendUint(num[:0], uint64(c.ID), 36)
			fs.add(fnv(fnv(fnvOffset, "c:"), string(id)), conceptWeight*float64(c.Weight))
		}
	}
	for i, h := range fs.hashes {
		// Sublinear term frequency: a word said five times is not five times the topic.
		add(v, h, 1+math.Log(1+fs.weights[i])-math.Log(2))
	}
}

// FNV-1a, 64 bits.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// fnv continues FNV-1a hash h over the bytes of s.
func fnv(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}

// features are a text's weighted features, by hash, in order of first
// occurrence, found again through an open-addressed table of their
// positions.
type features struct {
	hashes  []uint64
	weights []float64
	slots   []int32 // position + 1 in hashes; 0 free
}

// newFeatures returns empty features with room for about n, reusing a
// table a text embedded before left (release): their arrays were most of
// what embedding a turn allocated.
func newFeatures(n int) *features {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if fs, _ := featuresPool.Get().(*features); fs != nil && len(fs.slots) >= size && len(fs.slots) <= 4*size {
		fs.hashes, fs.weights = fs.hashes[:0], fs.weights[:0]
		clear(fs.slots)
		return fs
	}
	return &features{hashes: make([]uint64, 0, n), weights: make([]float64, 0, n), slots: make([]int32, size)}
}

// featuresPool holds tables for newFeatures.
var featuresPool sync.Pool

// release gives fs back for another text; it is not read after.
func (fs *features) release() { featuresPool.Put(fs) }

func (fs *features) add(h uint64, w float64) {
	if 2*(len(fs.hashes)+1) > len(fs.slots) {
		fs.rehash()
	}
	mask := uint64(len(fs.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch p := fs.slots[i]; {
		case p == 0:
			fs.slots[i] = int32(len(fs.hashes) + 1)
			fs.hashes = append(fs.hashes, h)
			fs.weights = append(fs.weights, w)
			return
		case fs.hashes[p-1] == h:
			fs.weights[p-1] += w
			return
		}
	}
}

// rehash doubles the table.
func (fs *features) rehash() {
	fs.slots = make([]int32, 2*len(fs.slots))
	mask := uint64(len(fs.slots) - 1)
	for k, h := range fs.hashes {
		i := h & mask
		for fs.slots[i] != 0 {
			i = (i + 1) & mask
		}
		fs.slots[i] = int32(k + 1)
	}
}

// add adds w into v at the dimension feature hash x picks, with the sign
// it picks, so collisions cancel on average.
func add(v []float64, x uint64, w float64) {
	i := int(x % uint64(len(v)))
	if x>>63 == 1 {
		w = -w
	}
	v[i] += w
}

// Normalized returns v at unit length: v itself when it already is (or is
// zero), else a scaled copy, so a caller's vector is never changed. Foreign
// embedders' vectors go through it so that they compare like this one's.
func Normalized(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 || (s > 0.9999 && s < 1.0001) {
		return v
	}
	out := slices.Clone(v)
	Normalize(out)
	return out
}

// Normalize scales v in place to unit length; the zero vector stays zero.
func Normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := 1 / math.Sqrt(s) // in float64: for a tiny vector it overflows float32
	for i := range v {
		v[i] = float32(float64(v[i]) * inv)
	}
}

// Cosine returns the dot product of two unit vectors of equal length; 0 if
// the lengths differ.
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}
