package boltstore

import (
	"encoding/binary"
	"hash/crc32"
	"math"

	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/internal/wire"
)

// A record is kept under its Seq, big-endian (seqKey), as: a version byte,
// the route, LogP, Delta, Gate, Novelty and Reward as little-endian
// float64s, the embedding's length as a varint and its components as
// little-endian float32s, Data, and, since version 2, the CRC-32C
// (Castagnoli) of all that, little-endian: bbolt checks its pages' layout,
// not their contents, so a flipped bit in a vector or a text would
// otherwise be read as written. Version 1 records, which have no
// checksum, are still read.
const recordVersion = 2

// castagnoli is the CRC-32C table records are checked with.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// maxDim bounds the embedding a record read from the file may hold:
// beyond it the record is damaged, not big. dmem refuses an embedder that
// returns more.
const maxDim = 1 << 16

// encodeRecord returns the binary form of r, less its Seq (the key).
func encodeRecord(r store.Record) []byte {
	b := make([]byte, 0, 2+5*8+binary.MaxVarintLen64+4*len(r.Embedding)+len(r.Data)+4)
	b = append(b, recordVersion, byte(r.Route))
	for _, f := range [...]float64{r.LogP, r.Delta, r.Gate, r.Novelty, r.Reward} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	b = binary.AppendUvarint(b, uint64(len(r.Embedding)))
	for _, x := range r.Embedding {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	b = append(b, r.Data...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// decodeRecord parses what encodeRecord wrote under key k, of either
// version; the result shares no memory with v. A record whose checksum
// does not match is damaged. A statistic that is not finite is repaired to
// 0: it costs that statistic, never the record, which would otherwise be
// refused by every commit that writes it back ([store.Op.Check]). A vector
// that is not finite, or a size past its bound, makes the record damaged.
func decodeRecord(k, v []byte) (store.Record, error) {
	if len(k) != 8 || len(v) < 2 {
		return store.Record{}, errRecord
	}
	switch v[0] {
	case 1:
	case recordVersion:
		n := len(v) - 4
		if n < 2 || binary.LittleEndian.Uint32(v[n:]) != crc32.Checksum(v[:n], castagnoli) {
			return store.Record{}, errRecord
		}
		v = v[:n]
	default:
		return store.Record{}, errRecord
	}
	d := wire.Reader{B: v[2:]}
	r := store.Record{Seq: int64(binary.BigEndian.Uint64(k)), Route: store.Route(v[1])}
	for _, f := range [...]*float64{&r.LogP, &r.Delta, &r.Gate, &r.Novelty, &r.Reward} {
		if x := math.Float64frombits(d.Uint64()); finite(x) {
			*f = x
		}
	}
	if n := d.Uvarint(); n > 0 && n <= maxDim && n <= uint64(len(d.B))/4 {
		r.Embedding = make([]float32, n)
		for i := range r.Embedding {
			r.Embedding[i] = math.Float32frombits(d.Uint32())
			if !finite(float64(r.Embedding[i])) {
				d.Fail("damaged")
			}
		}
	} else if n > 0 {
		d.Fail("damaged")
	}
	if d.Err != nil || r.Seq < 0 || r.Route > store.RouteMerged {
		return store.Record{}, errRecord
	}
	if len(d.B) > 0 {
		r.Data = append([]byte(nil), d.B...)
	}
	return r, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func seqKey(seq int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(seq)) }
