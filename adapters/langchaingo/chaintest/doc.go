// Package chaintest checks that a memory drops into langchaingo's chains
// and agent executor wherever they expect one, the way testing/slogtest
// checks a slog.Handler:
//
//	func TestLangchaingo(t *testing.T) {
//		chaintest.Run(t, func(t *testing.T) schema.Memory { return newMemory(t) })
//	}
//
// Each check runs a few turns through a langchaingo chain driven by a fake
// model that records its prompts ([memorytest.Recorder]), and asserts that
// a fact said in the first turn is in the prompt of a later one. The memory
// must return a string (langchaingo's executor takes only string inputs)
// and keep a short conversation whole under its default budget.
//
// It is a module of its own because langchaingo's chains bring its prompt
// templates' engine, and a tree of dependencies with it, into every build
// that imports them; the engram library imports none of langchaingo's
// chains, agents, prompt templates or tools. Its tests run both engram memories,
// and the callbacks package's handler, inside real chains and executors.
package chaintest
