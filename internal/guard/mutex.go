package guard

import (
	"context"
	"sync"
)

// Mutex is a mutual exclusion lock that a caller stops waiting for when
// its context is done: a call queued behind one that waits on a plug-in
// (a chat history written in order, say) returns at its own deadline, not
// at the other's. The zero value is an unlocked Mutex.
type Mutex struct {
	once sync.Once
	held chan struct{} // holds a value while the Mutex is locked
}

// Lock locks m, or returns ctx's error if ctx is done first.
func (m *Mutex) Lock(ctx context.Context) error {
	m.once.Do(func() { m.held = make(chan struct{}, 1) })
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case m.held <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Unlock unlocks m, which must be locked.
func (m *Mutex) Unlock() { <-m.held }
