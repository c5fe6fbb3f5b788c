package store

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/engram-go/engram"
)

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
	// step-age At, to max(p·Mul + Add, Min) in one atomic step ([NewLogP]);
	// no-op if the record is not stored.
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

// Check returns an error wrapping [engram.ErrInvalidInput] for an op that
// no store may apply, because stores would treat it differently: an
// unknown kind, a number that is not finite (a record's statistics, an
// embedding component, a priority change), or a term
// that is not valid UTF-8 or holds a NUL. Stores check every op of a
// commit before applying any. The message, "op 7: …", carries no prefix:
// the store that checks names itself and the commit.
func (o Op) Check() error {
	bad := func(what string, args ...any) error {
		return fmt.Errorf("op %d: %s: %w", o.Kind, fmt.Sprint(append([]any{what}, args...)...), engram.ErrInvalidInput)
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

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

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

// The bounds [NewLogP] keeps a priority within; dmem's own priorities
// keep to them too.
const (
	minPriority = 1e-9
	maxPriority = 1e6
)

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
