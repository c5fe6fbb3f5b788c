package dmem

import (
	"context"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/engram-go/engram"
)

// Namespace scopes what a [Store] holds. Every record, term count, learned
// state and sequence number belongs to exactly one namespace, and no store
// operation reads or changes another: a unit is never returned, counted,
// merged, evicted or learned from across namespaces. The zero Namespace is
// a namespace like any other. Its fields must be valid UTF-8 without NUL
// bytes ([engram.Namespace.Valid]), so that every store can keep them as
// text. It is [engram.Namespace], so every backend shares one type.
type Namespace = engram.Namespace

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

// OpKind says what an [Op] does.
type OpKind uint8

// The changes a [Store] commits.
const (
	// OpPut inserts Record, or replaces a stored record of the same Seq,
	// keeping that record's LogP.
	OpPut OpKind = iota
	// OpDelete removes the stored record Seq, if any.
	OpDelete
	// OpLog puts Record (its Embedding dropped) into the eviction log:
	// the histories of units that left.
	OpLog
	// OpUnlog removes Seq from the eviction log.
	OpUnlog
	// OpPriority sets the priority p of the stored record Seq, at
	// step-age At, to max(p·Mul + Add, Min) in one atomic step; no-op if
	// the record is not stored.
	OpPriority
	// OpEvict moves the lowest-priority core records (ties: lowest Seq)
	// into the eviction log, Route set to [RouteNowhere], until at most
	// Capacity remain.
	OpEvict
	// OpTerm adds N to the count of Term.
	OpTerm
	// OpState replaces the namespace's learned state with State.
	OpState
	// OpClear empties the namespace: records, log, terms and state. Its
	// sequence numbers are not reused.
	OpClear
)

// Op is one change of a [Store] commit. Which fields count depends on Kind.
type Op struct {
	Kind   OpKind
	Record Record // OpPut, OpLog
	Seq    int64  // OpDelete, OpUnlog, OpPriority

	Mul, Add, Min, At float64 // OpPriority

	Capacity int // OpEvict

	Term string // OpTerm
	N    int64  // OpTerm

	State []byte // OpState
}

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

// Store is the durable record of memories: per [Namespace], the stored
// units, an eviction log, term counts, a learned state and a sequence. The
// embedded store ([OpenStore]) keeps it in a bbolt file with chromem-go as
// its index; dmem/pgstore keeps it in PostgreSQL, shared by processes.
// dmem/storetest checks an implementation.
//
// A Store is safe for concurrent use. Every method is scoped to one
// namespace. After Close, methods fail with [engram.ErrClosed].
type Store interface {
	// Commit applies ops to namespace ns in order, all or none, and returns
	// once they are durable. Concurrent commits to one namespace, from any
	// number of processes, lose no change: each op is applied to the state
	// the commits before it left.
	Commit(ctx context.Context, ns Namespace, ops []Op) error
	// Reserve returns the first of n sequence numbers of ns that no other
	// call, in any process, has returned or will return.
	Reserve(ctx context.Context, ns Namespace, n int) (int64, error)
	// Get returns the stored record seq of ns, or [engram.ErrNotFound].
	Get(ctx context.Context, ns Namespace, seq int64) (Record, error)
	// Scan calls fn for every stored record of ns (log false) or every
	// record of its eviction log (log true), in ascending Seq. The record
	// is fn's to keep.
	Scan(ctx context.Context, ns Namespace, log bool, fn func(Record) error) error
	// Query returns up to n core records of ns most similar to vec by
	// cosine, best first. Records of another dimension are ignored.
	Query(ctx context.Context, ns Namespace, vec []float32, n int) ([]Hit, error)
	// Load returns the learned state and term counts of ns.
	Load(ctx context.Context, ns Namespace) (Snapshot, error)
	// Close releases the store.
	Close() error
}

// Check returns an error wrapping [engram.ErrInvalidInput] for an op that
// no store may apply, because stores would treat it differently: an
// unknown kind, a number that is not finite (a record's statistics, an
// embedding component, a priority change), or a term
// that is not valid UTF-8 or holds a NUL. Stores check every op of a
// commit before applying any.
func (o Op) Check() error {
	bad := func(what string, args ...any) error {
		return fmt.Errorf("dmem: op %d: %s: %w", o.Kind, fmt.Sprint(append([]any{what}, args...)...), engram.ErrInvalidInput)
	}
	switch o.Kind {
	case OpPut, OpLog:
		r := o.Record
		for _, x := range [...]float64{r.LogP, r.Delta, r.Gate, r.Novelty, r.Reward} {
			if !finite(x) {
				return bad("record statistic ", x)
			}
		}
		for _, x := range r.Embedding {
			if !finite(float64(x)) {
				return bad("embedding component ", x)
			}
		}
	case OpPriority:
		for _, x := range [...]float64{o.Mul, o.Add, o.Min, o.At} {
			if !finite(x) {
				return bad("priority change ", x)
			}
		}
	case OpTerm:
		if !utf8.ValidString(o.Term) || strings.IndexByte(o.Term, 0) >= 0 {
			return bad(fmt.Sprintf("term %q", o.Term))
		}
	case OpDelete, OpUnlog, OpEvict, OpState, OpClear:
	default:
		return bad("unknown kind")
	}
	return nil
}

// Put returns an [OpPut].
func Put(r Record) Op { return Op{Kind: OpPut, Record: r} }

// Delete returns an [OpDelete].
func Delete(seq int64) Op { return Op{Kind: OpDelete, Seq: seq} }

// Log returns an [OpLog].
func Log(r Record) Op { return Op{Kind: OpLog, Record: r} }

// Unlog returns an [OpUnlog].
func Unlog(seq int64) Op { return Op{Kind: OpUnlog, Seq: seq} }

// Priority returns an [OpPriority].
func Priority(seq int64, at, mul, add, min float64) Op {
	return Op{Kind: OpPriority, Seq: seq, At: at, Mul: mul, Add: add, Min: min}
}

// Evict returns an [OpEvict].
func Evict(capacity int) Op { return Op{Kind: OpEvict, Capacity: capacity} }

// Term returns an [OpTerm].
func Term(term string, n int64) Op { return Op{Kind: OpTerm, Term: term, N: n} }

// State returns an [OpState].
func State(b []byte) Op { return Op{Kind: OpState, State: b} }

// Clear returns an [OpClear].
func Clear() Op { return Op{Kind: OpClear} }

// NewLogP returns the LogP of a priority p at step-age at after an
// [OpPriority] (mul, add, min) applied to a record with LogP logP: p·mul +
// add, at least min, kept within [1e-9, 1e6]. Stores use it, or the same
// formula in their query language, so that every store orders evictions
// alike. The ceiling keeps priorities finite however often a unit is
// boosted: a unit at it still takes twenty half-lives to decay to 1.
func NewLogP(logP, at, mul, add, min float64) float64 {
	p := math.Exp2(logP-at)*mul + add
	return math.Log2(math.Min(max(p, min, minPriority), maxPriority)) + at
}
