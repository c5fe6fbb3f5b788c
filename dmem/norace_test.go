//go:build !race

package dmem

const raceEnabled = false
