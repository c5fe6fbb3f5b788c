package dmem

import (
	"context"

	"github.com/engram-go/engram/dmem/boltstore"
	"github.com/engram-go/engram/dmem/store"
)

// OpenStore opens or creates the embedded store in dir.
//
// Deprecated: use boltstore.Open(ctx, dir), which takes a context that
// bounds the wait for another process's lock, and options.
func OpenStore(dir string) (store.Store, error) {
	s, err := boltstore.Open(context.Background(), dir)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// ErrInUse reports a store file that is already open, in this process or
// another.
//
// Deprecated: use boltstore.ErrInUse, which it is.
var ErrInUse = boltstore.ErrInUse

// SalvageReport says what [Salvage] recovered and what it lost.
//
// Deprecated: use boltstore.SalvageReport, which it is.
type SalvageReport = boltstore.SalvageReport

// Salvage copies every intact record of the embedded store at from (its
// directory, or its file) into a new store in the directory to, which
// must not hold one yet; open it with [WithPath]. It is
// [boltstore.Salvage] leaving behind the units a memory cannot read and a
// learned state that does not check: the memory then relearns its gates,
// and keeps its units.
func Salvage(ctx context.Context, from, to string) (SalvageReport, error) {
	return boltstore.Salvage(ctx, from, to,
		boltstore.WithRecordCheck(func(r store.Record) error { _, _, err := fromRecord(r); return err }),
		boltstore.WithStateCheck(func(b []byte) error { var st state; return st.decode(b) }))
}
