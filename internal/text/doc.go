// Package text is engram's shared text analysis: word splitting, a light
// English stemmer, stop words, sentence splitting, and the flags (names,
// numbers, dates, "remember" directives) that make a message costly to lose.
// Every backend and the default embedder analyse text through it, so a word
// means the same thing everywhere.
package text
