package ratedistortion

import (
	"context"
	"fmt"
	"sync"

	"github.com/engram-go/engram"
)

// Tenants serves many namespaces from one process: each namespace gets its
// own [Buffer], built with the same options on first use, so a unit saved
// for one tenant is never returned, counted, evicted or summarised for
// another. It is safe for concurrent use; buffers of different namespaces
// do not contend.
type Tenants struct {
	opts []Option

	mu      sync.Mutex // guards buffers
	buffers map[engram.Namespace]*Buffer
}

// NewTenants checks opts once, by building a buffer, and returns an empty
// registry.
func NewTenants(opts ...Option) (*Tenants, error) {
	if _, err := New(opts...); err != nil {
		return nil, err
	}
	return &Tenants{opts: opts, buffers: make(map[engram.Namespace]*Buffer)}, nil
}

// For returns the buffer of namespace ns, creating it on first use. An
// invalid namespace (see [engram.Namespace.Valid]) gives an error wrapping
// [engram.ErrInvalidInput].
func (t *Tenants) For(ns engram.Namespace) (*Buffer, error) {
	if !ns.Valid() {
		return nil, fmt.Errorf("ratedistortion: namespace %v: %w", ns, engram.ErrInvalidInput)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if b, ok := t.buffers[ns]; ok {
		return b, nil
	}
	b, err := New(t.opts...)
	if err != nil {
		return nil, err
	}
	t.buffers[ns] = b
	return b, nil
}

// Forget drops namespace ns and everything it held.
func (t *Tenants) Forget(_ context.Context, ns engram.Namespace) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.buffers, ns)
}

// Len returns the number of namespaces held.
func (t *Tenants) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.buffers)
}
