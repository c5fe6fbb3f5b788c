package store

import (
	"context"

	"github.com/engram-go/engram"
)

// Store is the durable record of memories: per [engram.Namespace], the
// stored units, an eviction log, term counts, a learned state and a
// sequence. dmem's embedded store (dmem/boltstore) keeps it in a bbolt
// file with chromem-go as its index; dmem/pgstore keeps it in PostgreSQL, shared by processes.
// dmem/storetest checks an implementation.
//
// Every record, term count, learned state and sequence number belongs to
// exactly one namespace, and no method reads or changes another: a unit is
// never returned, counted, merged, evicted or learned from across
// namespaces. The zero Namespace is a namespace like any other; its fields
// are valid UTF-8 without NUL bytes ([engram.Namespace.Valid]), so that
// every store can keep them as text.
//
// A Store is safe for concurrent use. After Close, methods fail with
// [engram.ErrClosed].
type Store interface {
	// Commit applies ops to namespace ns in order, all or none, and returns
	// once they are durable. Concurrent commits to one namespace, from any
	// number of processes, lose no change: each op is applied to the state
	// the commits before it left. It checks every op ([Op.Check]) before
	// applying any.
	Commit(ctx context.Context, ns engram.Namespace, ops []Op) error
	// Reserve returns the first of n sequence numbers of ns that no other
	// call, in any process, has returned or will return.
	Reserve(ctx context.Context, ns engram.Namespace, n int) (int64, error)
	// Get returns the stored record seq of ns, or [engram.ErrNotFound].
	Get(ctx context.Context, ns engram.Namespace, seq int64) (Record, error)
	// Scan calls fn for every stored record of ns (log false) or every
	// record of its eviction log (log true), in ascending Seq. The record
	// is fn's to keep.
	Scan(ctx context.Context, ns engram.Namespace, log bool, fn func(Record) error) error
	// Query returns up to n core records of ns most similar to vec by
	// cosine, best first. Records of another dimension are ignored.
	Query(ctx context.Context, ns engram.Namespace, vec []float32, n int) ([]Hit, error)
	// Load returns the learned state and term counts of ns.
	Load(ctx context.Context, ns engram.Namespace) (Snapshot, error)
	// Close releases the store.
	Close() error
}

// Releaser is a [Store] that can take back the unused end of a
// reservation, so that a memory closed and reopened numbers its steps on
// from where it stopped instead of from its next block. dmem calls it on a
// clean Close; a store without it leaves a gap, which is harmless.
type Releaser interface {
	// Release gives back from, …, end−1 of ns, the unused end of a block
	// Reserve returned, if no call in any process has reserved a number
	// since: Reserve then returns from next. Otherwise it does nothing, so
	// that no number is ever returned twice. The caller must have committed
	// none of them and must use none of them afterwards.
	Release(ctx context.Context, ns engram.Namespace, from, end int64) error
}

// Record is one unit as a store keeps it: the columns a store searches,
// orders and evicts by, and Data, the rest of the unit in dmem's encoding,
// which a store keeps as it is.
type Record struct {
	// Seq identifies the record within its namespace.
	Seq int64
	// Route is where the unit is: core and short records are stored units;
	// only core records are searched and evicted.
	Route Route
	// LogP orders eviction: a unit's priority at step-age a is 2^(LogP − a).
	// A store sets it when it inserts a record and then changes it only by
	// [OpPriority], so concurrent priority changes add up.
	LogP float64
	// Delta, Gate, Novelty and Reward are the unit's surprise statistics,
	// kept as columns so they can be inspected without dmem.
	Delta, Gate, Novelty, Reward float64
	// Embedding is the unit's vector; empty or zero vectors are never
	// returned by a search.
	Embedding []float32
	// Data is the encoded unit.
	Data []byte
}

// Route is where a record's unit is. Its values are dmem.Route's.
type Route uint8

// Routes, as dmem numbers them.
const (
	RouteNowhere Route = iota // evicted: a record of the eviction log
	RouteShort                // the short-term buffer
	RouteCore                 // core memory: searched, and evicted by priority
	RouteMerged               // folded into a near-duplicate
)

// Hit is a search result: a core record and its cosine similarity to the query.
type Hit struct {
	Record
	Similarity float64
}

// Snapshot is a namespace's learned state and term counts.
type Snapshot struct {
	State []byte
	Terms map[string]int64
}

// Visit calls fn with each of rs in order, as a store's Scan hands out
// the records it collected: outside any transaction or connection, so
// that fn may commit, and stopping at fn's first error or when ctx is
// done.
func Visit(ctx context.Context, rs []Record, fn func(Record) error) error {
	for _, r := range rs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}
