// Command gen derives the lexicon table from WordNet 3.0.
//
// It reads the data.*, index.*, *.exc and cntlist.rev files of a WordNet
// dictionary directory (Debian's wordnet-base installs them in
// /usr/share/wordnet) and writes the gzip-compressed table that package
// lexicon embeds. The output depends only on its input and on text.Stem, so
// running it twice gives identical bytes:
//
//	go run ./internal/gen -wordnet /usr/share/wordnet -o table.bin.gz
//
// Regenerate whenever text.Stem or text.IsStop changes.
package main
