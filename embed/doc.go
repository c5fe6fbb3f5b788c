// Package embed is engram's offline default embedder: deterministic, no
// network, no model download, a few microseconds a sentence.
//
// A vector has two parts, each of unit length, weighted so that the dot
// product of two vectors is w·cos_glove + (1−w)·cos_hashed, w the GloVe
// share ([WithGloVeShare]; [DefaultGloVeShare] is 1, GloVe alone, 100
// dimensions; 0 is the hashed part alone):
//
//	[ √w · GloVe (100) | √(1−w) · hashed (512) ]
//
// The GloVe part is the SIF-weighted mean of the words' GloVe vectors
// (internal/glove: 75,000 words, embedded and read in place, int8, about
// 1.5 MB of heap once indexed), so lines on one topic meet
// though they share no word: "unwind after work" and "baking sourdough
// helps me relax".
//
// The hashed part is a bag of features — stemmed content words, pairs of
// neighbouring words, character 4-grams of each word (so "adopt" and
// "adoption" overlap), and each word's WordNet concepts (so "dad" meets
// "father", "sofa" meets "couch"; left out beside GloVe, which carries
// that meaning) — each weighted sublinearly (1 + ln tf),
// hashed with a sign into a fixed number of dimensions ([WithDimensions]).
// It holds the wording, names and numbers GloVe blurs.
//
// Neither knows what a sentence means as a neural embedder does; this one
// is the default because it needs nothing. Any langchaingo
// embeddings.Embedder (Ollama, OpenAI) can replace it where a memory takes
// one. A memory stores its vectors' length, so changing the share to or
// from 0, or the dimensions, makes earlier vectors incomparable.
package embed
