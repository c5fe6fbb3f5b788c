// Package relevance is engram's one measure of how well a stored unit
// answers a query: a hybrid of lexical BM25 (internal/lexical) and embedding
// cosine similarity, each scaled by its maximum over the candidates so that
// neither swamps the other. Every backend ranks through it.
package relevance
