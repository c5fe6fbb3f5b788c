// Command codeagent is an agent that fixes failing Go code, and a measurement
// of what engram's D-MEM memory saves it.
//
// It is handed a sequence of small modules, each with a failing test
// (testdata/tasks). For each, it runs go test to read the error, proposes a
// patch, applies it to a fresh copy and runs go test again — as a langchaingo
// tool wrapped by the callbacks package, so that every run reaches memory as
// an experience: a failed run is a tool error (reward −1), a passing one a
// tool result followed by the finish of the task (reward +1).
//
//	go test ──► error ──► recall(error) ──► propose ──► patch ──► go test (tool)
//	                         ▲                                      │
//	                         └──── D-MEM ◄── callbacks.Rewarder ◄───┘
//
// The default proposer is offline and deterministic: it walks a catalogue
// of textual fixes (catalogue.go) in alphabetical order, skipping those that
// do not apply to the code. With memory, it first asks D-MEM for experiences
// near "error: <the error>" and tries the fixes that worked there first, and
// those that failed last. With -llm ollama or -llm openai a model proposes the
// patches instead, shown the code, the error and what memory recalled.
//
// The sequence runs twice, with no memory and with D-MEM, and the command
// prints the attempts and time each task took.
package main
