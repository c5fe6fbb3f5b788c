package gate

import "errors"

// ErrFormat reports serialised gate data that is truncated, corrupt, or of
// a version or feature layout this package does not read.
var ErrFormat = errors.New("gate: bad format")
