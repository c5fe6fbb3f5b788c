package dmem

import (
	"encoding/binary"
	"math"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/internal/wire"
)

// codecMeta is the metadata codecUnit's records carry, as a document
// added by AddDocuments has.
var codecMeta = []byte(`{"a":"b"}`)

func codecUnit() *unit {
	return &unit{
		Unit: engram.Unit{ID: idOf(7), Seq: 7, Group: 3, Role: engram.RoleAI, Text: "Luna the Maine Coon joined us.",
			Time: time.Unix(1700000000, 5), Tokens: 9, Flags: engram.FlagName},
		Kind: engram.StepMessage, Route: RouteCore, Delta: -0.5, Gate: 0.75, Novelty: 0.25,
		Reward: 1.5, Merged: 2, Retrieved: 4, LogP: -3,
		History: []Event{{Step: 7, Kind: EventRouted, Route: RouteCore, Delta: -0.5, Gate: 0.75, Priority: 1}},
		heapIdx: -1, slot: -1,
	}
}

func TestCodecRoundTrip(t *testing.T) {
	for _, at := range []time.Time{time.Unix(1700000000, 5), time.Date(2500, 1, 1, 0, 0, 0, 7, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), {}} {
		u := codecUnit()
		u.Time = at
		got, meta, err := decodeUnit(u.encode(nil, codecMeta))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(meta, codecMeta) {
			t.Errorf("metadata %q decoded as %q", codecMeta, meta)
		}
		if !got.Time.Equal(u.Time) {
			t.Errorf("time %v decoded as %v", u.Time, got.Time)
		}
		got.Time, u.Time = got.Time.UTC(), u.Time.UTC()
		if !reflect.DeepEqual(got, u) {
			t.Fatalf("decode(encode(u)) =\n%+v\nwant\n%+v", got, u)
		}
	}
}

// A unit's facts round-trip in codec version 3; a unit without facts is
// still written as version 2, which earlier releases read. A record cut
// inside its facts is damaged.
func TestCodecFacts(t *testing.T) {
	u := codecUnit()
	if b := u.encode(nil, nil); b[0] != 2 {
		t.Fatalf("a unit without facts is written as version %d, want 2", b[0])
	}
	u.Facts = []engram.Fact{{Subject: "Luna", Relation: "breed", Value: "Maine Coon"}, {Subject: "Luna", Relation: "owner", Value: "us"}}
	b := u.encode(nil, nil)
	if b[0] != 3 {
		t.Fatalf("a unit with facts is written as version %d, want 3", b[0])
	}
	got, meta, err := decodeUnit(b)
	if err != nil || meta != nil {
		t.Fatal(meta, err)
	}
	got.Time, u.Time = got.Time.UTC(), u.Time.UTC()
	if !reflect.DeepEqual(got, u) {
		t.Fatalf("decode(encode(u)) =\n%+v\nwant\n%+v", got, u)
	}
	if _, _, err := decodeUnit(b[:len(b)-3]); err == nil {
		t.Error("decodeUnit accepted a record cut inside its facts")
	}
}

// encodeV1 writes u as codec version 1 did: the frozen format of stores
// written before this version, without its words' novelty and with the
// time in nanoseconds.
func encodeV1(u *unit, meta []byte) []byte {
	b := []byte{1}
	b = binary.AppendVarint(b, u.Seq)
	b = binary.AppendVarint(b, u.Group)
	b = append(b, byte(u.Role), byte(u.Kind), byte(u.Route))
	b = binary.AppendUvarint(b, uint64(u.Flags))
	b = wire.AppendPrefixed(b, []byte(u.Text))
	b = binary.AppendVarint(b, u.Time.UnixNano())
	b = binary.AppendUvarint(b, uint64(u.Tokens))
	for _, f := range [...]float64{u.Delta, u.Gate, u.Novelty, u.Reward, u.LogP} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	b = binary.AppendUvarint(b, uint64(u.Merged))
	b = binary.AppendUvarint(b, uint64(u.Retrieved))
	b = wire.AppendPrefixed(b, meta)
	b = binary.AppendUvarint(b, 0)
	b = binary.AppendUvarint(b, uint64(len(u.History)))
	for _, e := range u.History {
		b = binary.AppendVarint(b, e.Step)
		b = append(b, byte(e.Kind), byte(e.Route))
		for _, f := range [...]float64{e.Delta, e.Gate, e.Priority} {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
		}
	}
	return b
}

// A record written by the first release (codec version 1, without the
// novelty of its words when it came) still opens.
func TestCodecReadsVersion1(t *testing.T) {
	u := codecUnit()
	got, meta, err := decodeUnit(encodeV1(u, codecMeta))
	if err != nil || !reflect.DeepEqual(meta, codecMeta) {
		t.Fatal(meta, err)
	}
	want := *u
	got.Time, want.Time = got.Time.UTC(), want.Time.UTC()
	if !reflect.DeepEqual(got, &want) {
		t.Fatalf("version 1 record decoded as\n%+v\nwant\n%+v", got, &want)
	}
	b := u.encode(nil, codecMeta)
	for _, bad := range [][]byte{nil, {0}, {codecVersion + 1}, b[:len(b)/2]} {
		if _, _, err := decodeUnit(bad); err == nil {
			t.Errorf("decodeUnit(%v) accepted a bad record", bad)
		}
	}
}

// A record's route is the unit's: store.Route numbers routes as Route does.
func TestRoutesMatchStore(t *testing.T) {
	for r, want := range map[Route]store.Route{
		RouteNowhere: store.RouteNowhere, RouteShort: store.RouteShort, RouteCore: store.RouteCore, RouteMerged: store.RouteMerged,
	} {
		if got := store.Route(r); got != want {
			t.Errorf("%v is store route %d, want %d", r, got, want)
		}
	}
}

// A unit stays within Go's 288-byte size class: a memory holds thousands,
// and a field added carelessly costs 32 bytes each.
func TestUnitSize(t *testing.T) {
	if n := unsafe.Sizeof(unit{}); n > 288 {
		t.Errorf("a unit takes %d bytes, over 288", n)
	}
}

// Counts stop at MaxInt32 instead of wrapping.
func TestCountsSaturate(t *testing.T) {
	if got := addCount(math.MaxInt32-1, 5); got != math.MaxInt32 {
		t.Errorf("addCount near the top = %d", got)
	}
	if got := addCount(3, 4); got != 7 {
		t.Errorf("addCount(3, 4) = %d", got)
	}
}
