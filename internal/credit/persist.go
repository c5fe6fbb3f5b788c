package credit

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/engram-go/engram/internal/wire"
)

// ErrFormat is what UnmarshalBinary wraps when its input is not a ledger
// this package wrote.
var ErrFormat = errors.New("credit: not a saved ledger")

const ledgerMagic = "ENGRAMCL"

// ledgerVersion is the version of the saved form MarshalBinary writes.
// Version 2 adds each answer's marks and words (describe); a version 1
// answer has none, and matches only questions without marks.
const ledgerVersion = 2

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
	b = wire.AppendPrefixed(b, g)
	taught := byte(0)
	if l.taught {
		taught = 1
	}
	b = append(b, taught)
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
		b = wire.AppendPrefixed(b, []byte(k))
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
			b = wire.AppendPrefixed(b, []byte(k))
		}
		b = wire.AppendPrefixed(b, []byte(a.marks))
		b = wire.AppendPrefixed(b, []byte(a.words))
	}
	return b, nil
}

// UnmarshalBinary replaces what the ledger learned with what MarshalBinary
// saved. On any error, which wraps ErrFormat, the ledger is unchanged.
func (l *Ledger) UnmarshalBinary(data []byte) error {
	r := wire.New(data, func(msg string) error { return fmt.Errorf("%s: %w", msg, ErrFormat) })
	if string(r.Bytes(len(ledgerMagic))) != ledgerMagic {
		return fmt.Errorf("credit: unmarshal: %w", ErrFormat)
	}
	version := r.Uvarint()
	if r.Err == nil && (version < 1 || version > ledgerVersion) {
		return fmt.Errorf("credit: unmarshal: version %d, this package reads 1 to %d: %w", version, ledgerVersion, ErrFormat)
	}
	n := New()
	if g := r.Prefixed(); r.Err == nil {
		if err := n.kinds.UnmarshalBinary(g); err != nil {
			return fmt.Errorf("credit: unmarshal: %w: %w", ErrFormat, err)
		}
	}
	n.taught = r.Byte() == 1
	n.ratings = r.Count(math.MaxInt32)
	n.mean = r.Float64()
	for range r.Count(len(data)) {
		k := string(r.Prefixed())
		sum := r.Float64()
		loads := r.Count(math.MaxInt32)
		if r.Err == nil {
			n.units[k] = &standing{sum: sum, loads: loads}
		}
	}
	for range r.Count(len(data)) {
		dim := r.Count(len(data) / 4)
		q := make([]float32, 0, dim)
		for range dim {
			q = append(q, math.Float32frombits(r.Uint32()))
		}
		a := answer{q: q, rating: r.Float64()}
		for range r.Count(len(data)) {
			a.keys = append(a.keys, string(r.Prefixed()))
		}
		if version >= 2 {
			a.marks, a.words = string(r.Prefixed()), string(r.Prefixed())
		}
		if r.Err == nil && len(n.answers) < MaxAnswers {
			n.answers = append(n.answers, a)
		}
	}
	switch {
	case r.Err != nil:
		return fmt.Errorf("credit: unmarshal: %w", r.Err)
	case len(r.B) > 0:
		return fmt.Errorf("credit: unmarshal: %d bytes after the ledger: %w", len(r.B), ErrFormat)
	}
	// Numbers are finite (wire.Reader.Float64 refuses others); a question's
	// vector must be of at most unit length too.
	kept := n.answers[:0]
	for _, a := range n.answers {
		if !unitVector(squaredLength(a.q)) {
			return fmt.Errorf("credit: unmarshal: a question's vector is not of unit length: %w", ErrFormat)
		}
		// Scaled to unit length exactly, as Loaded files them; a zero
		// vector, which matches no question, is dropped.
		if a.q = normalised(a.q); a.q != nil {
			kept = append(kept, a)
		}
	}
	n.answers = kept
	n.lastQ, n.lastKeys, n.loaded = nil, nil, false
	*l = *n
	return nil
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
