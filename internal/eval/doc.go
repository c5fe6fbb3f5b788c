// Package eval measures how well a memory keeps what matters at each token
// budget, and how fast: the workload behind cmd/memeval.
//
// Each conversation of a dataset is replayed into a fresh memory, consecutive
// turns saved as input/output pairs ("Speaker: text") with SaveContext; then
// every question is asked with LoadMemoryVariables({"input": question}).
// Evidence recall is the share of a question's evidence turns whose full text
// appears in what the memory returned; adversarial questions and questions
// without evidence are left out. Tokens are counted exactly (cl100k_base).
package eval
