package store

import "errors"

// ErrCorrupt reports a damaged file or record: the message names what is
// damaged. A store that reads a record it cannot decode skips it, logged,
// so that it costs that record; one whose file is damaged as a whole fails
// to open with it. dmem.ErrCorrupt and boltstore.ErrCorrupt are this
// error, under the names their users know.
var ErrCorrupt = errors.New("corrupt")
