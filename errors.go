package engram

import (
	"errors"
	"fmt"
)

// Errors shared by every engram memory, so callers can branch on them with
// errors.Is whichever backend they use.
var (
	// ErrInvalidOption reports an option value a constructor refused.
	ErrInvalidOption = errors.New("engram: invalid option")
	// ErrInvalidInput reports input a memory refused; nothing was stored.
	ErrInvalidInput = errors.New("engram: invalid input")
	// ErrBudgetTooSmall reports that what must be kept does not fit the budget.
	ErrBudgetTooSmall = errors.New("engram: budget too small")
	// ErrNotFound reports an unknown unit.
	ErrNotFound = errors.New("engram: not found")
	// ErrClosed reports use of a closed memory.
	ErrClosed = errors.New("engram: closed")
	// ErrPanicked reports that something plugged into a memory (a
	// long-term tier, a fact extractor, a summariser, an embedder, a chat
	// history) panicked; the memory recovered.
	ErrPanicked = errors.New("engram: plug-in panicked")
	// ErrTooLarge reports a message longer than a memory takes (see
	// WithMaxMessageBytes in both memories); it wraps [ErrInvalidInput],
	// and nothing was stored.
	ErrTooLarge = fmt.Errorf("engram: message too large: %w", ErrInvalidInput)
)
