// Package gate is a learned gate for engram memories: a few-hundred-byte
// logistic model that learns, online and from the agent's own experience,
// which units will be needed later. It is an [engram.Scorer], so
// ratedistortion takes it through WithScorer in place of its hand-set
// Weights, and an [engram.Explainer], so Explain shows why.
//
//	features f ──► φ(f): bias, relevance, relevance², recency, redundancy,
//	               log tokens, role, directive/name/number/date/pinned,
//	               log retrieved, log age, surprise, |surprise|
//	Score(f) = σ(w·φ(f))   the probability that the unit will be needed
//
//	hindsight ──► Observe(f, label)   a later turn referred back to it (1) or not (0)
//	          ──► Hindsight(f, r)     it was retrieved and the act earned reward r
//	labels    ──► Fit(examples, n)    supervised mode, for comparison only
//
// Each update is one AdaGrad step on the log loss: O(#features), no
// allocation but the 160-byte weight vector it publishes. Learners are
// serialised by a mutex; Score reads the last published weights through an
// atomic pointer and never waits. A Gate is safe for concurrent use and
// starts no goroutine. Learning from hindsight credits the features a unit
// had when the memory decided on it (see the cue task in the tests): a
// unit's age at the time of the reward says nothing about its admission.
//
// The gate is deterministic: its weights start at 0 and its one source of
// randomness, Fit's order, is seeded ([WithSeed]). MarshalBinary saves the
// whole state (weights, AdaGrad sums, options, seed state; 383 bytes) in a
// versioned, checksummed format, to be stored with the memory.
package gate
