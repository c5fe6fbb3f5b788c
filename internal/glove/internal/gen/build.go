package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unicode"
	"unicode/utf8"
)

// DefaultWords is how many words the table keeps: 75,000 take 8.5 MB,
// reach rank 75,041 of the file's 341,479 (only punctuation is
// skipped above that: wink's file already lacks GloVe's numbers,
// apostrophe forms and non-ASCII words), and past it words are mostly
// names, misspellings and foreign forms.
const DefaultWords = 75000

// Built is a generated table and its statistics.
type Built struct {
	Bytes    []byte // the table, as package glove embeds it
	Words    int
	LastRank int // frequency rank of the rarest word kept
	// MeanCosine and MinCosine compare each kept vector with its
	// dequantized form.
	MeanCosine, MinCosine float64
}

// keep reports whether w belongs in a table for English dialogue: lower
// case, made of (Latin) letters, digits, apostrophes and hyphens, with at
// least one letter or digit, and not wrapped in hyphens like the
// tokenizer's bracket escapes ("-lrb-").
func keep(w string) bool {
	if w == "" || w[0] == '-' || w[len(w)-1] == '-' || !utf8.ValidString(w) {
		return false
	}
	content := false
	for _, r := range w {
		switch {
		case r >= '0' && r <= '9':
			content = true
		case unicode.IsLetter(r) && unicode.Is(unicode.Latin, r) && !unicode.IsUpper(r):
			content = true
		case r == '\'' || r == '-':
		default:
			return false
		}
	}
	return content
}

// Build selects the n most frequent words of src that keep accepts and
// encodes the table package glove reads in place, uncompressed (integers
// are uvarints):
//
//	"GLV1" N
//	N words: length, bytes (most frequent first)
//	N ranks: rank − previous rank − 1 (the previous of the first is −1)
//	N scales: float32, little-endian
//	N × 100 components: int8, component = int8 × scale
//	100 components of the common direction: float32, little-endian
func Build(src *Source, n int) (*Built, error) {
	if n <= 0 {
		return nil, errors.New("no words to keep")
	}
	var (
		words  []string
		ranks  []int
		scales []float32
		comps  []int8
	)
	b := &Built{MinCosine: 1}
	var cosSum float64
	for rank, w := range src.Words {
		if len(words) == n {
			break
		}
		if !keep(w) {
			continue
		}
		v, err := src.vector(w)
		if err != nil {
			return nil, err
		}
		scale, q := quantize(v)
		c := cosine(v, scale, q)
		cosSum += c
		b.MinCosine = min(b.MinCosine, c)
		words = append(words, w)
		ranks = append(ranks, rank)
		scales = append(scales, scale)
		comps = append(comps, q...)
	}
	if len(words) < n {
		return nil, fmt.Errorf("only %d words to keep, want %d", len(words), n)
	}

	var raw bytes.Buffer
	raw.WriteString("GLV1")
	raw.Write(binary.AppendUvarint(nil, uint64(len(words))))
	for _, w := range words {
		raw.Write(binary.AppendUvarint(nil, uint64(len(w))))
		raw.WriteString(w)
	}
	prev := -1
	for _, r := range ranks {
		raw.Write(binary.AppendUvarint(nil, uint64(r-prev-1)))
		prev = r
	}
	for _, s := range scales {
		raw.Write(binary.LittleEndian.AppendUint32(nil, math.Float32bits(s)))
	}
	vecs := make([]float32, len(comps))
	for i, c := range comps {
		raw.WriteByte(byte(c))
		vecs[i] = float32(c) * scales[i/Dim]
	}
	for _, x := range commonDirection(vecs, ranks) {
		raw.Write(binary.LittleEndian.AppendUint32(nil, math.Float32bits(x)))
	}

	b.Bytes, b.Words, b.LastRank = raw.Bytes(), len(words), prev
	b.MeanCosine = cosSum / float64(len(words))
	return b, nil
}

// quantize maps v to int8 components times one scale, the largest
// magnitude over 127, so that every component is within half a step. The
// rounding uses the float32 scale package glove multiplies by.
func quantize(v []float64) (float32, []int8) {
	var maxAbs float64
	for _, x := range v {
		maxAbs = math.Max(maxAbs, math.Abs(x))
	}
	q := make([]int8, len(v))
	scale := float32(maxAbs / 127)
	if scale == 0 {
		return 0, q
	}
	for i, x := range v {
		q[i] = int8(max(-127, min(127, math.Round(x/float64(scale)))))
	}
	return scale, q
}

// cosine compares v with its dequantized form as package glove computes
// it (float32(q) × scale).
func cosine(v []float64, scale float32, q []int8) float64 {
	var dot, nv, nq float64
	for i, x := range v {
		y := float64(float32(q[i]) * scale)
		dot += x * y
		nv += x * x
		nq += y * y
	}
	if nv == 0 || nq == 0 {
		return 1
	}
	return dot / math.Sqrt(nv*nq)
}
