// Package lexical is an incremental BM25 index over small documents, the
// lexical half of engram's relevance and the baseline retriever of memeval.
// Documents are dense integer ids chosen by the owner; terms come from
// internal/text. It is not safe for concurrent use: owners hold it under
// their own lock.
package lexical
