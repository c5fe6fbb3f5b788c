package credit

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// ErrFormat is what UnmarshalBinary wraps when its input is not a ledger
// this package wrote.
var ErrFormat = errors.New("credit: not a saved ledger")

const ledgerMagic = "ENGRAMCL"

// ledgerVersion is the version of the saved form MarshalBinary writes.
const ledgerVersion = 1

// MarshalBinary returns what the ledger learned: its gate, the units'
// standing, the running mean and the filed answers, in a versioned form
// UnmarshalBinary reads. The latest load is not saved: a restored ledger
// has no load to rate.
func (l *Ledger) MarshalBinary() ([]byte, error) {
	g, err := l.kinds.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("credit: marshal: %w", err)
	}
	b := []byte(ledgerMagic)
	b = binary.AppendUvarint(b, ledgerVersion)
	b = appendBytes(b, g)
	b = append(b, boolByte(l.taught))
	b = binary.AppendUvarint(b, uint64(l.ratings))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(l.mean))
	keys := make([]string, 0, len(l.units))
	for k := range l.units {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = binary.AppendUvarint(b, uint64(len(keys)))
	for _, k := range keys {
		s := l.units[k]
		b = appendBytes(b, []byte(k))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.sum))
		b = binary.AppendUvarint(b, uint64(s.loads))
	}
	// Oldest first, so that a restored ring ages them out in order.
	b = binary.AppendUvarint(b, uint64(len(l.answers)))
	for i := range l.answers {
		a := &l.answers[(l.next+i)%len(l.answers)]
		b = binary.AppendUvarint(b, uint64(len(a.q)))
		for _, x := range a.q {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(a.rating))
		b = binary.AppendUvarint(b, uint64(len(a.keys)))
		for _, k := range a.keys {
			b = appendBytes(b, []byte(k))
		}
	}
	return b, nil
}

// UnmarshalBinary replaces what the ledger learned with what MarshalBinary
// saved. On any error, which wraps ErrFormat, the ledger is unchanged.
func (l *Ledger) UnmarshalBinary(data []byte) error {
	r := reader{b: data}
	if string(r.take(len(ledgerMagic))) != ledgerMagic {
		return fmt.Errorf("credit: unmarshal: %w", ErrFormat)
	}
	if v := r.uvarint(); r.err == nil && v != ledgerVersion {
		return fmt.Errorf("credit: unmarshal: version %d, this package reads %d: %w", v, ledgerVersion, ErrFormat)
	}
	n := New()
	if g := r.bytes(); r.err == nil {
		if err := n.kinds.UnmarshalBinary(g); err != nil {
			return fmt.Errorf("credit: unmarshal: %w: %w", ErrFormat, err)
		}
	}
	n.taught = r.byte() == 1
	n.ratings = int(r.count(math.MaxInt32))
	n.mean = r.float64()
	for range r.count(len(data)) {
		k := string(r.bytes())
		sum := r.float64()
		loads := int(r.count(math.MaxInt32))
		if r.err == nil {
			n.units[k] = &standing{sum: sum, loads: loads}
		}
	}
	for range r.count(len(data)) {
		dim := r.count(len(data) / 4)
		q := make([]float32, 0, dim)
		for range dim {
			q = append(q, math.Float32frombits(r.uint32()))
		}
		a := answer{q: q, rating: r.float64()}
		for range r.count(len(data)) {
			a.keys = append(a.keys, string(r.bytes()))
		}
		if r.err == nil && len(n.answers) < MaxAnswers {
			n.answers = append(n.answers, a)
		}
	}
	switch {
	case r.err != nil:
		return fmt.Errorf("credit: unmarshal: %w", r.err)
	case len(r.b) > 0:
		return fmt.Errorf("credit: unmarshal: %d bytes after the ledger: %w", len(r.b), ErrFormat)
	case math.IsNaN(n.mean) || math.IsInf(n.mean, 0):
		return fmt.Errorf("credit: unmarshal: mean rating %v: %w", n.mean, ErrFormat)
	}
	for _, s := range n.units {
		if math.IsNaN(s.sum) || math.IsInf(s.sum, 0) {
			return fmt.Errorf("credit: unmarshal: standing %v: %w", s.sum, ErrFormat)
		}
	}
	for _, a := range n.answers {
		if math.IsNaN(a.rating) || math.IsInf(a.rating, 0) {
			return fmt.Errorf("credit: unmarshal: rating %v: %w", a.rating, ErrFormat)
		}
		if !unitVector(a.q) {
			return fmt.Errorf("credit: unmarshal: a question's vector is not of unit length: %w", ErrFormat)
		}
	}
	n.lastQ, n.lastKeys, n.loaded = nil, nil, false
	*l = *n
	return nil
}

func appendBytes(b, x []byte) []byte { return append(binary.AppendUvarint(b, uint64(len(x))), x...) }

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// reader reads the saved form; the first failure sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("truncated or damaged: %w", ErrFormat)
	}
	r.b = nil
}

func (r *reader) take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.fail()
		return nil
	}
	x := r.b[:n]
	r.b = r.b[n:]
	return x
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return x
}

// count reads a count of at most limit.
func (r *reader) count(limit int) int {
	x := r.uvarint()
	if x > uint64(limit) {
		r.fail()
		return 0
	}
	return int(x)
}

func (r *reader) bytes() []byte { return r.take(r.count(len(r.b))) }

func (r *reader) byte() byte {
	if x := r.take(1); len(x) == 1 {
		return x[0]
	}
	return 0
}

func (r *reader) uint32() uint32 {
	if x := r.take(4); len(x) == 4 {
		return binary.LittleEndian.Uint32(x)
	}
	return 0
}

func (r *reader) float64() float64 {
	if x := r.take(8); len(x) == 8 {
		return math.Float64frombits(binary.LittleEndian.Uint64(x))
	}
	return 0
}

// MarshalKinds returns the ledger's gate alone (gate.Gate.MarshalBinary),
// nil until a rating has taught it: a few hundred bytes a memory can keep
// with every commit, where the answers and standing would cost more.
func (l *Ledger) MarshalKinds() []byte {
	if !l.taught {
		return nil
	}
	b, err := l.kinds.MarshalBinary()
	if err != nil {
		return nil
	}
	return b
}

// UnmarshalKinds restores the gate MarshalKinds saved; empty data is no
// gate. On error the ledger is unchanged.
func (l *Ledger) UnmarshalKinds(data []byte) error {
	if len(data) == 0 {
		return nil
	}
	if err := l.kinds.UnmarshalBinary(data); err != nil {
		return fmt.Errorf("credit: unmarshal kinds: %w: %w", ErrFormat, err)
	}
	l.taught = true
	return nil
}
