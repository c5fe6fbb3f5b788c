package ratedistortion

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/gate"
	"github.com/engram-go/engram/option"
)

// Tenants serves many namespaces from one process: each namespace gets its
// own [Buffer], built with the same options on first use, so a unit saved
// for one tenant is never returned, counted, evicted or summarised for
// another. A gate given by [option.WithGate] is where each namespace starts: it
// learns in its own copy, taken when the namespace is first used, so one
// tenant's turns and rewards never change another's scores. It is safe for
// concurrent use; buffers of different namespaces do not contend.
type Tenants struct {
	opts []Option
	gate *gate.Gate // option.WithGate's, copied for each namespace; nil for none

	mu      sync.Mutex // guards buffers
	buffers map[engram.Namespace]*Buffer
}

// NewTenants checks opts once, by building a buffer, and returns an empty
// registry. It refuses [option.WithChatHistory] and [WithLongTerm], which every
// namespace would share.
func NewTenants(opts ...Option) (*Tenants, error) {
	b, err := New(opts...)
	if err != nil {
		return nil, err
	}
	if b.opts.Chat != nil {
		// One history for every namespace would mix their transcripts.
		return nil, fmt.Errorf("ratedistortion: tenants: one chat history for every namespace: %w", engram.ErrInvalidOption)
	}
	if b.opts.longTerm != nil {
		// One long-term tier would recall one namespace's units into another's.
		return nil, fmt.Errorf("ratedistortion: tenants: one long-term tier for every namespace: %w", engram.ErrInvalidOption)
	}
	// A copy: the caller may change its slice after.
	return &Tenants{opts: slices.Clone(opts), gate: b.opts.Gate, buffers: make(map[engram.Namespace]*Buffer)}, nil
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
	opts := t.opts
	if t.gate != nil {
		g, err := copyGate(t.gate)
		if err != nil {
			return nil, fmt.Errorf("ratedistortion: namespace %v: %w", ns, err)
		}
		opts = append(slices.Clip(opts), option.WithGate(g))
	}
	b, err := New(opts...)
	if err != nil {
		return nil, err
	}
	t.buffers[ns] = b
	return b, nil
}

// copyGate returns a gate with g's weights and learning state.
func copyGate(g *gate.Gate) (*gate.Gate, error) {
	data, err := g.MarshalBinary()
	if err != nil {
		return nil, err
	}
	c := new(gate.Gate)
	if err := c.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return c, nil
}

// Forget drops namespace ns and everything it held. A buffer For returned
// earlier is detached: what is saved to it afterwards no longer reaches
// the registry, and the next For(ns) starts empty.
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
