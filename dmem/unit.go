package dmem

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/internal/nearby"
	"github.com/engram-go/engram/dmem/internal/quantile"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/text"
	"github.com/engram-go/engram/internal/wire"
)

// EventKind names something that happened to a unit.
type EventKind uint8

// Events in a unit's history.
const (
	EventRouted      EventKind = iota // the gate routed the step
	EventMerged                       // a near-duplicate step merged into it
	EventRewarded                     // a reward arrived and was judged
	EventPromoted                     // surprise moved it from the short-term buffer to core
	EventBoosted                      // it was retrieved and a positive δ followed
	EventEvicted                      // core memory was full and it had the lowest priority
	EventOverwritten                  // it fell out of the short-term buffer
	EventDecided                      // a later transition revised its δ
)

var eventNames = [...]string{"routed", "merged", "rewarded", "promoted", "boosted", "evicted", "overwritten", "decided"}

// String returns the event's lower-case name.
func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "unknown"
}

// Event is one entry of a unit's history.
type Event struct {
	// Step is the memory's step counter when it happened.
	Step int64
	// Kind says what happened; Route where the unit was afterwards.
	Kind  EventKind
	Route Route
	// Delta is the signed surprise judged (RPE, or novelty for reward-free
	// steps); Gate the gate's output for it.
	Delta, Gate float64
	// Priority is the unit's priority right after the event.
	Priority float64
}

// maxHistory bounds a unit's history: the first event and the latest ones.
const maxHistory = 16

// unit is a stored step: the shared Unit plus what the gate and the
// forgetting policy know about it. Guarded by Memory.mu.
type unit struct {
	engram.Unit
	Kind      engram.StepKind
	Route     Route
	indexed   bool    // present in the chromem index
	Delta     float64 // signed surprise that placed it
	Gate      float64
	Novelty   float64
	Reward    float64
	Merged    int32   // steps folded into it
	Retrieved int32   // loads that returned it
	LogP      float64 // log2 of its priority at step 0; see forget.go
	History   []Event

	// The fields below are ordered so that a unit takes 288 bytes, a size
	// class of Go's (a memory holds thousands): heapIdx fills the word
	// after lsh. What few units have lives beside them: the metadata of a
	// document added by AddDocuments in Memory.meta.
	lsh     nearby.Entry   // its record in Memory.lsh
	heapIdx int32          // position in the eviction heap; -1 outside core
	slot    int            // slot in the words index; -1 when not resident
	facts   facts.Analysis // what its text says of the turns before it (internal/facts)
}

// exported returns u as the memory hands it out, with its whole
// embedding in a slice of its own (words.vector).
func (u *unit) exported(w *words) engram.Unit {
	x := u.Unit
	x.Embedding = w.vector(u)
	return x
}

func idOf(seq int64) string { return "u" + strconv.FormatInt(seq, 10) }

// seqOf parses an id made by idOf.
func seqOf(id string) (int64, bool) {
	s, ok := strings.CutPrefix(id, "u")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n >= 0 && idOf(n) == id
}

func (u *unit) record(e Event) {
	if len(u.History) >= maxHistory {
		copy(u.History[1:], u.History[2:])
		u.History = u.History[:maxHistory-1]
	}
	u.History = append(u.History, e)
}

// codecVersion is the newest version encode writes. Version 1 lacks the
// novelty of a unit's words when it came, which retrieval once weighed
// (on real dialogue that lost recall; version 2 and later write −1,
// unknown, and nothing reads it), and keeps the time in nanoseconds, which
// cannot hold every year; version 2 lacks the facts, and encode still writes it for a unit that states
// none, so that a memory without [option.WithFacts] keeps records that earlier
// releases read. decodeUnit reads all three.
const codecVersion = 3

// maxFacts bounds the facts a record read from disk may hold.
const maxFacts = 1 << 10

// encode appends the binary form of u, less its embedding, to b: the
// Data of its [store.Record]; meta is the metadata of a document added by
// AddDocuments, nil for any other step.
func (u *unit) encode(b, meta []byte) []byte {
	version := byte(codecVersion)
	if len(u.Facts) == 0 {
		version = 2
	}
	b = append(b, version)
	b = binary.AppendVarint(b, u.Seq)
	b = binary.AppendVarint(b, u.Group)
	b = append(b, byte(u.Role), byte(u.Kind), byte(u.Route))
	b = binary.AppendUvarint(b, uint64(u.Flags))
	b = wire.AppendPrefixed(b, []byte(u.Text))
	// Seconds and nanoseconds apart: UnixNano is undefined outside the
	// years 1678 to 2262, and a step's time is the caller's to choose.
	b = binary.AppendVarint(b, u.Time.Unix())
	b = binary.AppendUvarint(b, uint64(u.Time.Nanosecond()))
	b = binary.AppendUvarint(b, uint64(u.Tokens))
	for _, f := range [...]float64{u.Delta, u.Gate, u.Novelty, u.Reward, u.LogP, -1} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	b = binary.AppendUvarint(b, uint64(u.Merged))
	b = binary.AppendUvarint(b, uint64(u.Retrieved))
	b = wire.AppendPrefixed(b, meta)
	b = binary.AppendUvarint(b, 0) // the embedding is the record's own column
	b = binary.AppendUvarint(b, uint64(len(u.History)))
	for _, e := range u.History {
		b = binary.AppendVarint(b, e.Step)
		b = append(b, byte(e.Kind), byte(e.Route))
		for _, f := range [...]float64{e.Delta, e.Gate, e.Priority} {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
		}
	}
	if version < 3 {
		return b
	}
	return facts.AppendWire(b, u.Facts)
}

// float reads a float as stored, finite or not: repair judges it.
func float(d *wire.Reader) float64 { return math.Float64frombits(d.Uint64()) }

// Bounds on what a record read from disk may hold: beyond them it is
// damaged, not big. maxDim also bounds what an embedder may return.
const (
	maxDim    = 1 << 16 // embedding dimensions
	maxTokens = 1 << 31 // tokens of one unit
	maxCount  = 1 << 40 // merges, retrievals; a unit holds at most MaxInt32
)

// repair returns x if it is finite, else def: a damaged statistic of a
// record costs that statistic, never the record, whose text matters more.
// A record with a non-finite number would otherwise open fine and then be
// refused by every commit that writes it back ([store.Op.Check]).
func repair(x, def float64) float64 {
	if finite(x) {
		return x
	}
	return def
}

// decodeUnit parses a record into the unit and the metadata of a document
// added by AddDocuments (nil for any other step); neither shares memory
// with b. Numbers that are not finite are repaired (see repair):
// statistics to 0. Counts and sizes beyond their bounds make it damaged.
func decodeUnit(b []byte) (u *unit, meta []byte, err error) {
	if len(b) == 0 || b[0] < 1 || b[0] > codecVersion {
		return nil, nil, errCorrupt
	}
	version := b[0]
	d := &wire.Reader{B: b[1:]}
	u = &unit{heapIdx: -1, slot: -1}
	u.Seq = d.Varint()
	u.Group = d.Varint()
	u.Role = engram.Role(d.Byte())
	u.Kind = engram.StepKind(d.Byte())
	u.Route = Route(d.Byte())
	u.Flags = engram.Flags(d.Uvarint())
	u.Text = string(d.Prefixed())
	if version >= 2 {
		u.Time = time.Unix(d.Varint(), int64(d.Uvarint()))
	} else {
		u.Time = time.Unix(0, d.Varint())
	}
	tokens := d.Uvarint()
	u.Tokens = int(min(tokens, maxTokens))
	u.Delta, u.Gate, u.Novelty, u.Reward, u.LogP = repair(float(d), 0), repair(float(d), 0), repair(float(d), 0), repair(float(d), 0), repair(float(d), 0)
	if version >= 2 {
		_ = float(d) // the words' novelty, which nothing reads
	}
	merged, retrieved := d.Uvarint(), d.Uvarint()
	u.Merged, u.Retrieved = int32(min(merged, math.MaxInt32)), int32(min(retrieved, math.MaxInt32))
	if m := d.Prefixed(); len(m) > 0 {
		meta = append([]byte(nil), m...)
	}
	if n := d.Uvarint(); n > 0 && n <= maxDim && n <= uint64(len(d.B))/4 {
		u.Embedding = make([]float32, n)
		for i := range u.Embedding {
			u.Embedding[i] = math.Float32frombits(d.Uint32())
			if !finite(float64(u.Embedding[i])) {
				d.Fail("damaged") // a vector with a hole in it points nowhere
			}
		}
	} else if n > 0 {
		d.Fail("damaged")
	}
	for range d.Count(maxHistory) {
		e := Event{Step: d.Varint(), Kind: EventKind(d.Byte()), Route: Route(d.Byte())}
		e.Delta, e.Gate, e.Priority = repair(float(d), 0), repair(float(d), 0), repair(float(d), 0)
		u.History = append(u.History, e)
	}
	if version >= 3 {
		// What a damaged record states may not be a fact at all.
		u.Facts = facts.Clean(facts.ReadWire(d, maxFacts))
	}
	if d.Err != nil || u.Seq < 0 || u.Route > RouteMerged || tokens > maxTokens || merged > maxCount || retrieved > maxCount ||
		u.Time.Nanosecond() < 0 || u.Group < 0 {
		return nil, nil, errCorrupt
	}
	u.ID = idOf(u.Seq)
	return u, meta, nil
}

// toRecord returns u as a store keeps it, with embedding vec, which the
// record keeps: the unit's while it is stored (words.vector, a copy, for
// the store writes it after the lock is let go and the unit's row may
// move by then), nil once only its history is; meta as encode has it. A
// [store.Route] has a [Route]'s value.
func (u *unit) toRecord(vec []float32, meta []byte) store.Record {
	return store.Record{Seq: u.Seq, Route: store.Route(u.Route), LogP: u.LogP, Delta: u.Delta, Gate: u.Gate, Novelty: u.Novelty,
		Reward: u.Reward, Data: u.encode(nil, meta), Embedding: vec}
}

// fromRecord returns the unit r holds, and its metadata as decodeUnit
// does. Where the store and the unit's own data disagree the store wins:
// it may have evicted the unit or changed its priority on behalf of
// another writer.
func fromRecord(r store.Record) (*unit, []byte, error) {
	u, meta, err := decodeUnit(r.Data)
	if err != nil || u.Seq != r.Seq {
		return nil, nil, errCorrupt
	}
	if r.Route == store.RouteNowhere && (u.Route == RouteCore || u.Route == RouteShort) {
		u.record(Event{Kind: EventEvicted, Route: RouteNowhere})
	}
	u.Route, u.LogP = Route(r.Route), repair(r.LogP, 0)
	if len(r.Embedding) > 0 {
		u.Embedding = r.Embedding
	}
	u.facts = facts.Turn(text.Excerpt(u.Text), u.Role.String())
	return u, meta, nil
}

// decode parses the state record b into st, checking every number
// that sizes something or indexes something: a damaged state record is an
// error, never an allocation of its choosing or a panic later.
func (st *state) decode(b []byte) error {
	if err := json.Unmarshal(b, st); err != nil {
		return err
	}
	switch {
	case st.Dim < 0 || st.Dim > maxDim:
		return fmt.Errorf("dimension %d is outside [0, %d]", st.Dim, maxDim)
	case st.Seq < 0 || st.Group < 0 || st.Steps < 0 || st.Rewards < 0:
		return fmt.Errorf("negative counter (seq %d, group %d, steps %d, rewards %d)", st.Seq, st.Group, st.Steps, st.Rewards)
	case !finite(st.RewardScale) || st.RewardScale < 0 || !finite(st.MeanValue):
		return fmt.Errorf("reward scale %v, mean value %v", st.RewardScale, st.MeanValue)
	}
	for _, q := range [...]quantile.Estimator{st.Novelty[0], st.Novelty[1], st.RPE[0], st.RPE[1]} {
		if !q.Valid() {
			return fmt.Errorf("a quantile of p %v over %d values", q.P, q.N)
		}
	}
	return nil
}

// unitsDim returns the dimension most of the units have, 0 if none has one.
func unitsDim(us ...[]*unit) int {
	n := make(map[int]int)
	best := 0
	for _, list := range us {
		for _, u := range list {
			if d := len(u.Embedding); d > 0 {
				n[d]++
				if n[d] > n[best] || n[d] == n[best] && d < best {
					best = d
				}
			}
		}
	}
	return best
}

// countDim counts the units of dimension dim.
func countDim(dim int, us ...[]*unit) int {
	n := 0
	for _, list := range us {
		for _, u := range list {
			if len(u.Embedding) == dim {
				n++
			}
		}
	}
	return n
}
