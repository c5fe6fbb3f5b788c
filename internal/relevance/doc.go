// Package relevance is engram's one measure of how well a stored turn
// answers a query, derived on real dialogue (LoCoMo; docs/measurements.md, "What
// relevance weighs"): stemmed BM25 (internal/lexical) and embedding cosine
// (GloVe sentence vectors by default), each scaled by its maximum; then
// each turn inherits a share of its neighbours' relevance, because in
// conversation the turn that holds a fact often shares no word with the
// question about it while the turn before or after does; then a cue for
// a turn whose speaker the question names, and a smaller one for a turn
// that answers a question. Every backend ranks through it; a context made
// by [WithOff] switches parts off for the loads made with it, for an
// ablation.
package relevance
