package wire

import (
	"encoding/binary"
	"errors"
	"math"
)

// Reader reads fields from B. Err is the first failure, made by the
// function New was given (or a plain error for a Reader made as a value,
// which costs no allocation on a hot path); B is emptied by it.
type Reader struct {
	B   []byte
	Err error

	fail func(msg string) error
}

// New returns a Reader of b whose failures are made by fail from a short
// description ("bad varint", "truncated").
func New(b []byte, fail func(msg string) error) *Reader {
	return &Reader{B: b, fail: fail}
}

// Fail records a failure described by msg, unless one is recorded already.
func (r *Reader) Fail(msg string) {
	if r.Err == nil {
		if r.fail != nil {
			r.Err = r.fail(msg)
		} else {
			r.Err = errors.New(msg)
		}
	}
	r.B = nil
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	x, n := binary.Uvarint(r.B)
	if n <= 0 {
		r.Fail("bad varint")
		return 0
	}
	r.B = r.B[n:]
	return x
}

// Varint reads a signed varint.
func (r *Reader) Varint() int64 {
	x, n := binary.Varint(r.B)
	if n <= 0 {
		r.Fail("bad varint")
		return 0
	}
	r.B = r.B[n:]
	return x
}

// Count reads an unsigned varint of at most limit.
func (r *Reader) Count(limit int) int {
	x := r.Uvarint()
	if x > uint64(limit) {
		r.Fail("count over its limit")
		return 0
	}
	return int(x)
}

// Bytes reads n bytes, which share B's array.
func (r *Reader) Bytes(n int) []byte {
	if n < 0 || n > len(r.B) {
		r.Fail("truncated")
		return nil
	}
	out := r.B[:n:n]
	r.B = r.B[n:]
	return out
}

// Prefixed reads a varint length and that many bytes.
func (r *Reader) Prefixed() []byte { return r.Bytes(r.Count(len(r.B))) }

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if b := r.Bytes(1); len(b) == 1 {
		return b[0]
	}
	return 0
}

// Uint32 reads a little-endian uint32.
func (r *Reader) Uint32() uint32 {
	if b := r.Bytes(4); len(b) == 4 {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

// Uint64 reads a little-endian uint64.
func (r *Reader) Uint64() uint64 {
	if b := r.Bytes(8); len(b) == 8 {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// Float64 reads a little-endian IEEE float; a NaN or an infinity is a
// failure ("non-finite number").
func (r *Reader) Float64() float64 {
	b := r.Bytes(8)
	if len(b) < 8 {
		return 0
	}
	x := math.Float64frombits(binary.LittleEndian.Uint64(b))
	if math.IsNaN(x) || math.IsInf(x, 0) {
		r.Fail("non-finite number")
		return 0
	}
	return x
}

// AppendPrefixed appends x to b after its length as a varint.
func AppendPrefixed(b, x []byte) []byte { return append(binary.AppendUvarint(b, uint64(len(x))), x...) }
