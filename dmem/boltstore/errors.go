package boltstore

import (
	"errors"
	"fmt"

	"github.com/engram-go/engram/dmem/store"
)

// Errors of the store, to branch on with errors.Is. The errors every store
// shares (invalid input, not found, closed) are engram's.
var (
	// ErrCorrupt reports a damaged file or record; it is store.ErrCorrupt,
	// and dmem.ErrCorrupt. Opening a damaged file fails with a
	// [*CorruptError], which matches it; [Salvage] copies what is intact
	// into a new store.
	ErrCorrupt = store.ErrCorrupt
	// ErrInUse reports a store file that is already open, in this process
	// or another: bbolt lets one process at a time use it.
	ErrInUse = errors.New("boltstore: store in use")
)

// CorruptError is the error of a damaged store file: what Open and Salvage
// found wrong with it. It matches [ErrCorrupt].
type CorruptError struct {
	// Path is the file's absolute path.
	Path string
	// Damage says what is damaged.
	Damage string
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("boltstore: %s is damaged: %s (Salvage copies what is intact): %v", e.Path, e.Damage, ErrCorrupt)
}

// Unwrap returns [ErrCorrupt].
func (e *CorruptError) Unwrap() error { return ErrCorrupt }

// corrupt returns the [*CorruptError] of the file at path.
func corrupt(path, what string) error { return &CorruptError{Path: path, Damage: what} }

// errRecord is a record that does not decode; it costs that record.
var errRecord = fmt.Errorf("%w record", ErrCorrupt)
