package boltstore

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"slices"
	"testing"

	"github.com/engram-go/engram/dmem/store"
)

// A record's bytes are those every earlier release wrote, and decode back
// to the record.
func TestRecordFormat(t *testing.T) {
	r := store.Record{Seq: 7, Route: store.RouteCore, LogP: 1.5, Delta: -0.25, Gate: 0.75, Novelty: 0.5, Reward: 1,
		Embedding: []float32{0.6, 0.8}, Data: []byte("unit")}
	const want = "0102000000000000f83f000000000000d0bf000000000000e83f000000000000e03f000000000000f03f029a99193fcdcc4c3f756e6974"
	b := encodeRecord(r)
	if got := hex.EncodeToString(b); got != want {
		t.Fatalf("encoded\n%s\nwant\n%s", got, want)
	}
	got, err := decodeRecord(seqKey(7), b)
	if err != nil || got.Seq != r.Seq || got.Route != r.Route || got.LogP != r.LogP || got.Reward != r.Reward ||
		!slices.Equal(got.Embedding, r.Embedding) || string(got.Data) != "unit" {
		t.Fatalf("decoded %+v, %v", got, err)
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
