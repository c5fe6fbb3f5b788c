// Package embed is engram's offline default embedder: deterministic, no
// network, no model download, a few microseconds a sentence.
//
// A text becomes a bag of features — stemmed content words, pairs of
// neighbouring words, and character 4-grams of each word (so "adopt" and
// "adoption" overlap) — each weighted sublinearly (1 + ln tf), hashed with a
// sign into a fixed number of dimensions, and the vector is unit-normalised.
// Cosine similarity is then the dot product.
//
// It captures wording, not meaning: "dog" and "beagle" share nothing. It is
// the default because it needs nothing; any langchaingo embeddings.Embedder
// (Ollama, OpenAI) can replace it where a memory takes one.
package embed
