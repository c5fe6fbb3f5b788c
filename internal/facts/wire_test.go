package facts

import (
	"reflect"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/wire"
)

func TestWireRoundTrip(t *testing.T) {
	fs := []engram.Fact{{Subject: "omar", Relation: "home city", Value: "Edinburgh"}, {Subject: "user", Relation: "employer", Value: "Arup"}}
	b := AppendWire([]byte{7}, fs)
	d := &wire.Reader{B: b[1:]}
	if got := ReadWire(d, 8); d.Err != nil || !reflect.DeepEqual(got, fs) {
		t.Fatalf("read %v, %v; want %v", got, d.Err, fs)
	}
	if got := ReadWire(&wire.Reader{B: AppendWire(nil, nil)}, 8); got != nil {
		t.Errorf("no facts read as %v, want nil", got)
	}
	// A count past the bound, or a record cut short, is an error.
	over := &wire.Reader{B: b[1:]}
	if ReadWire(over, 1) != nil || over.Err == nil {
		t.Errorf("two facts read with a bound of one: %v", over.Err)
	}
	short := &wire.Reader{B: b[1 : len(b)-3]}
	if ReadWire(short, 8); short.Err == nil {
		t.Error("a record cut short read without error")
	}
}
