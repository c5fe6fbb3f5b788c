// Package memorytest checks that a memory drops into langchaingo wherever it
// expects one, the way testing/slogtest checks a slog.Handler:
//
//	func TestLangchaingo(t *testing.T) {
//		memorytest.Run(t, func(t *testing.T) schema.Memory { return newMemory(t) })
//	}
//
// Each check runs a few turns through a langchaingo chain driven by a fake
// model that records its prompts, and asserts that a fact said in the first
// turn is in the prompt of a later one. The memory must return a string
// (langchaingo's executor takes only string inputs) and keep a short
// conversation whole under its default budget.
//
// [Engram] checks what both engram memories share beyond schema.Memory: the
// options of the same name (WithTokenBudget, the keys and prefixes,
// WithReturnMessages, WithHalfLife, WithMaxUnits, WithRedundancyThreshold,
// WithMaxMessageBytes), Explain's [engram.LoadReport], and one answer to
// one bad input (an empty turn or step, a non-finite reward, a message too
// large: an error wrapping [engram.ErrInvalidInput], and nothing stored).
// ratedistortion and dmem run it from their tests, each mapping [Options]
// to its own options.
package memorytest
