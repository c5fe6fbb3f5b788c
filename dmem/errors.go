package dmem

import (
	"fmt"

	"github.com/engram-go/engram/dmem/internal/groupcommit"
	"github.com/engram-go/engram/dmem/store"
)

// Errors of dmem's stores, to branch on with errors.Is. The errors shared
// by every engram memory (invalid input, not found, closed) are engram's.
var (
	// ErrStore reports that the store failed a commit, or a reservation,
	// even after retries: the calls whose writes that commit carried fail
	// with it, and their writes are not recorded. It wraps the store's own
	// error. The memory is not harmed: once the fault clears, later writes
	// succeed.
	ErrStore = groupcommit.ErrStore
	// ErrCorrupt reports a damaged file or record: the message names the
	// file and what is damaged. Opening a damaged file fails with it, and
	// [Salvage] copies what is intact into a new file. It is
	// store.ErrCorrupt.
	ErrCorrupt = store.ErrCorrupt
)

// errCorrupt is a record that does not decode; it costs that record.
var errCorrupt = fmt.Errorf("%w record", ErrCorrupt)
