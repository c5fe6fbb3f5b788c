//go:build race

package dmem

// raceEnabled trims the slowest quality tests under the race detector,
// which checks concurrency, not recall.
const raceEnabled = true
