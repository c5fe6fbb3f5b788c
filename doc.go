// Package engram holds the vocabulary every engram memory shares: the memory
// [Unit], its [Role] and [Flags], the [TokenCounter] and [Scorer] function
// types, the reward [Step] an agent loop reports, the [LoadReport] every
// memory's Explain returns, the [Fact] a [FactExtractor] reads in a unit,
// the [LongTerm] tier a working context sits over, the [Failures] of what
// a user plugged into a memory, and the errors callers branch on.
//
// engram gives LLM agents a long-horizon memory that keeps what matters under a
// hard token budget. The memories live in subpackages:
//
//	ratedistortion  a drop-in for langchaingo's ConversationTokenBuffer that, at
//	                every load, keeps the set of messages whose loss would cost
//	                most, within the budget, and says what it left out
//	dmem            dopamine-gated long-term memory: surprise routes each step
//	                to core memory, a short-term buffer, or nowhere
//
// This package imports only the standard library, so backends, adapters and
// callbacks can all depend on it without depending on each other.
package engram
