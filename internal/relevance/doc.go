// Package relevance is engram's one measure of how well a stored unit
// answers a query: a hybrid of lexical BM25 (internal/lexical) and embedding
// cosine similarity, each scaled by its maximum over the candidates so that
// neither swamps the other. On top of the two it weighs the names a query
// shares with a unit, the kind of answer the question asks for, and the
// unit's novelty — how many words it brought that no earlier unit used —
// since a stated fact is mostly first mentions and small talk is not.
// Every backend ranks through it.
package relevance
