// Package embed is engram's offline default embedder: deterministic, no
// network, no model download, a few microseconds a sentence.
//
// A text becomes a bag of features — stemmed content words, pairs of
// neighbouring words, character 4-grams of each word (so "adopt" and
// "adoption" overlap), and each word's WordNet concepts (so "dad" meets
// "father", "sofa" meets "couch") — each weighted sublinearly (1 + ln tf),
// hashed with a sign into a fixed number of dimensions, and the vector is
// unit-normalised. Cosine similarity is then the dot product.
//
// It captures wording and dictionary sense, not the meaning of a sentence:
// a neural embedder knows that "unwind" may be answered by "sourdough
// baking"; this one does not. It is the default because it needs nothing;
// any langchaingo embeddings.Embedder (Ollama, OpenAI) can replace it where
// a memory takes one.
package embed
