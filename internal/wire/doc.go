// Package wire reads the little-endian, varint-prefixed fields engram's
// saved forms are made of (a ratedistortion buffer's file, the ratings'
// ledger) from a byte slice whose first failure sticks: after it every read
// returns a zero value, so that a decoder reads a whole record and checks
// the error once, and damaged input costs no more than the bytes it holds.
package wire
