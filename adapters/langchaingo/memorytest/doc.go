// Package memorytest checks what both engram memories promise beyond
// schema.Memory, the way testing/slogtest checks a slog.Handler:
//
//	func TestEngram(t *testing.T) {
//		memorytest.Engram(t, func(t *testing.T, opts ...option.Option) (memorytest.Explainer, error) {
//			return ratedistortion.New(opts...)
//		})
//	}
//
// [Engram] checks that the options of package option (WithTokenBudget,
// the keys and prefixes, WithReturnMessages, WithHalfLife, WithMaxUnits,
// WithRedundancyThreshold, WithMaxMessageBytes) mean the same in every
// memory, Explain's [engram.LoadReport], and one answer to one bad input (an empty turn or
// step, a non-finite reward, a message too large: an error wrapping
// [engram.ErrInvalidInput], and nothing stored). ratedistortion and dmem
// run it from their tests. [Clear] checks that Clear forgets, and
// [Recorder] is a fake model, safe for concurrent use, that records the
// prompts it is given.
//
// The checks that run a memory inside langchaingo's chains and agent
// executor are in the module adapters/langchaingo/chaintest, so that this
// package, and the library, need no chains.
package memorytest
