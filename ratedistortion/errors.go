package ratedistortion

import "errors"

// Errors of a saved buffer, to branch on with errors.Is. [Restore] returns
// them wrapped together with [engram.ErrInvalidInput], so a caller that
// only asks whether the input was bad need not know them.
var (
	// ErrCorrupt reports saved data that is not a buffer [Buffer.Save]
	// wrote: another file, or one truncated or damaged (its checksum or its
	// contents do not hold).
	ErrCorrupt = errors.New("ratedistortion: corrupt saved buffer")
	// ErrVersion reports a saved buffer in a format version this package
	// does not read, such as one written by a newer engram.
	ErrVersion = errors.New("ratedistortion: unsupported format version")
)
