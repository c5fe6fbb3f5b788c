package dmem

import (
	"bytes"
	"encoding/binary"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/engram-go/engram"
)

func codecUnit() *unit {
	return &unit{
		Unit: engram.Unit{ID: idOf(7), Seq: 7, Group: 3, Role: engram.RoleAI, Text: "Luna the Maine Coon joined us.",
			Time: time.Unix(1700000000, 5), Tokens: 9, Flags: engram.FlagName},
		Kind: engram.StepMessage, Route: RouteCore, Delta: -0.5, Gate: 0.75, Novelty: 0.25, Fresh: 0.123456789,
		Reward: 1.5, Merged: 2, Retrieved: 4, LogP: -3, Meta: []byte(`{"a":"b"}`),
		History: []Event{{Step: 7, Kind: EventRouted, Route: RouteCore, Delta: -0.5, Gate: 0.75, Priority: 1}},
		heapIdx: -1, slot: -1,
	}
}

func TestCodecRoundTrip(t *testing.T) {
	u := codecUnit()
	got, err := decodeUnit(u.encode(nil))
	if err != nil {
		t.Fatal(err)
	}
	got.Time, u.Time = got.Time.UTC(), u.Time.UTC()
	if !reflect.DeepEqual(got, u) {
		t.Fatalf("decode(encode(u)) =\n%+v\nwant\n%+v", got, u)
	}
}

// A record written before Fresh was kept (codec version 1) still opens,
// with Fresh unknown, so that the words index computes it.
func TestCodecReadsVersion1(t *testing.T) {
	u := codecUnit()
	b := u.encode(nil)
	fresh := binary.LittleEndian.AppendUint64(nil, math.Float64bits(u.Fresh))
	i := bytes.Index(b, fresh)
	if i < 0 {
		t.Fatal("Fresh not found in the encoding")
	}
	v1 := append(append([]byte{1}, b[1:i]...), b[i+len(fresh):]...)
	got, err := decodeUnit(v1)
	if err != nil {
		t.Fatal(err)
	}
	if got.Fresh != -1 || got.Text != u.Text || got.LogP != u.LogP || got.Retrieved != u.Retrieved || len(got.History) != 1 {
		t.Fatalf("version 1 record decoded as %+v", got)
	}
	for _, bad := range [][]byte{nil, {0}, {codecVersion + 1}, b[:len(b)/2]} {
		if _, err := decodeUnit(bad); err == nil {
			t.Errorf("decodeUnit(%v) accepted a bad record", bad)
		}
	}
}
