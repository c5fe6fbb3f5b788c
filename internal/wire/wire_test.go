package wire

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

var errBad = errors.New("bad")

func fail(msg string) error { return errors.Join(errBad, errors.New(msg)) }

func TestRoundTrip(t *testing.T) {
	b := binary.AppendUvarint(nil, 300)
	b = binary.AppendVarint(b, -7)
	b = AppendPrefixed(b, []byte("hello"))
	b = append(b, 9)
	b = binary.LittleEndian.AppendUint32(b, 0xdeadbeef)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(2.5))
	r := New(b, fail)
	if r.Uvarint() != 300 || r.Varint() != -7 || string(r.Prefixed()) != "hello" || r.Byte() != 9 || r.Uint32() != 0xdeadbeef || r.Float64() != 2.5 {
		t.Fatal("fields read back differ")
	}
	if r.Err != nil || len(r.B) != 0 {
		t.Fatalf("err %v, %d bytes left", r.Err, len(r.B))
	}
}

// The first failure sticks: every later read is zero, and the error is the
// first one's.
func TestFailureSticks(t *testing.T) {
	b := binary.LittleEndian.AppendUint64(nil, math.Float64bits(math.NaN()))
	b = binary.AppendUvarint(b, 5)
	r := New(b, fail)
	if r.Float64() != 0 || !errors.Is(r.Err, errBad) {
		t.Fatalf("a NaN: err %v", r.Err)
	}
	first := r.Err
	if r.Uvarint() != 0 || r.Count(10) != 0 || r.Bytes(1) != nil || r.Err != first {
		t.Fatal("reads after a failure are not zero, or the error changed")
	}
	if r := New([]byte{0x80}, fail); r.Uvarint() != 0 || r.Err == nil {
		t.Fatal("a cut varint is not a failure")
	}
	if r := New(binary.AppendUvarint(nil, 11), fail); r.Count(10) != 0 || r.Err == nil {
		t.Fatal("a count over its limit is not a failure")
	}
	if r := New([]byte{1, 2}, fail); r.Bytes(3) != nil || r.Err == nil {
		t.Fatal("reading past the end is not a failure")
	}
}

// A Reader made as a value fails with a plain error.
func TestValueReader(t *testing.T) {
	r := Reader{B: []byte{0x80}}
	if r.Uvarint() != 0 || r.Err == nil || r.B != nil {
		t.Fatalf("a cut varint: err %v, %d bytes left", r.Err, len(r.B))
	}
}
