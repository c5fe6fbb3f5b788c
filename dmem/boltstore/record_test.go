package boltstore

import (
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"math"
	"slices"
	"testing"

	"github.com/engram-go/engram/dmem/store"
)

// A record's bytes are version 1's, which earlier releases wrote and are
// still read, with version 2's byte and a CRC-32C of them after; both
// decode back to the record.
func TestRecordFormat(t *testing.T) {
	r := store.Record{Seq: 7, Route: store.RouteCore, LogP: 1.5, Delta: -0.25, Gate: 0.75, Novelty: 0.5, Reward: 1,
		Embedding: []float32{0.6, 0.8}, Data: []byte("unit")}
	const v1 = "0102000000000000f83f000000000000d0bf000000000000e83f000000000000e03f000000000000f03f029a99193fcdcc4c3f756e6974"
	old, err := hex.DecodeString(v1)
	if err != nil {
		t.Fatal(err)
	}
	b := encodeRecord(r)
	if body := slices.Concat([]byte{2}, old[1:]); !slices.Equal(b[:len(b)-4], body) ||
		binary.LittleEndian.Uint32(b[len(b)-4:]) != crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)) {
		t.Fatalf("encoded\n%x\nwant version 1's bytes under version 2, then their CRC-32C", b)
	}
	for _, enc := range [][]byte{old, b} {
		got, err := decodeRecord(seqKey(7), enc)
		if err != nil || got.Seq != r.Seq || got.Route != r.Route || got.LogP != r.LogP || got.Reward != r.Reward ||
			!slices.Equal(got.Embedding, r.Embedding) || string(got.Data) != "unit" {
			t.Fatalf("version %d decoded %+v, %v", enc[0], got, err)
		}
	}
}

// Any byte of a record changed makes it damaged: the checksum holds the
// vector's and the text's bytes, which no other check reads.
func TestChangedRecordIsDamage(t *testing.T) {
	b := encodeRecord(store.Record{Seq: 7, Route: store.RouteCore, Gate: 0.75,
		Embedding: []float32{0.6, 0.8}, Data: []byte("the locker code is 7041")})
	for i := range b {
		for _, bit := range []byte{1, 0x80} {
			c := slices.Clone(b)
			c[i] ^= bit
			if _, err := decodeRecord(seqKey(7), c); err == nil {
				t.Fatalf("byte %d with bit %#x flipped decoded", i, bit)
			}
		}
	}
	if _, err := decodeRecord(seqKey(7), b[:len(b)-1]); err == nil {
		t.Fatal("a record cut short decoded")
	}
}

// An embedding with a non-finite component makes a record damaged, however
// many components follow it: decoding fails, and never panics.
func TestNonFiniteEmbeddingIsDamage(t *testing.T) {
	vec := []float32{0.5, float32(math.NaN()), 0.25, 0.125}
	rec := encodeRecord(store.Record{Seq: 3, Route: store.RouteCore, Embedding: vec})
	if _, err := decodeRecord(binary.BigEndian.AppendUint64(nil, 3), rec); err == nil {
		t.Error("a record with a NaN in its embedding decoded")
	}
}

// A statistic that is not finite costs that statistic: it decodes as 0.
func TestNonFiniteStatisticIsRepaired(t *testing.T) {
	b := encodeRecord(store.Record{Seq: 1, Route: store.RouteShort, LogP: math.NaN(), Delta: math.Inf(-1), Gate: 0.5})
	r, err := decodeRecord(seqKey(1), b)
	if err != nil || r.LogP != 0 || r.Delta != 0 || r.Gate != 0.5 {
		t.Fatalf("decoded %+v, %v", r, err)
	}
}
