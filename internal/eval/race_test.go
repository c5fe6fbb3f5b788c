//go:build race

package eval

// raceEnabled reports a build with the race detector, which makes replays
// about ten times slower.
const raceEnabled = true
