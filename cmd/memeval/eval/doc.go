// Package eval measures how well a memory keeps what matters at each token
// budget, and how fast: the workload behind cmd/memeval.
//
// Each conversation of a dataset is replayed into a fresh memory, consecutive
// turns saved as input/output pairs ("Speaker: text") with SaveContext; then
// every question is asked with LoadMemoryVariables({"input": question}).
// Evidence recall is the share of a question's evidence turns whose full text
// appears in what the memory returned; adversarial questions and questions
// without evidence are left out. Tokens are counted exactly (cl100k_base).
// While a pair is saved, ReplayClock reads its session's date, for the
// memories that stamp what they keep.
//
// Two further evaluations reuse the replay. LongHorizon joins a
// dataset's conversations into one (Concat) and asks every question at the
// end, so that a memory must keep thousands of turns, not hundreds.
// Updates replays conversations in which facts change (package updates)
// and scores current-value recall, single- and multi-hop, and how often a
// superseded statement is shown without its date (Dated). Each has its
// target (LongHorizonTarget, UpdateTarget) that a test enforces for the
// memories it names.
package eval
