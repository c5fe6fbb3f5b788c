//go:build race

package tokens

// raceEnabled loosens the timing test: the race detector slows the merge
// loop about tenfold.
const raceEnabled = true
