package facts

import (
	"encoding/binary"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/wire"
)

// AppendWire appends fs as both memories' records hold them: their count,
// then each one's subject, relation and value, length-prefixed.
func AppendWire(b []byte, fs []engram.Fact) []byte {
	b = binary.AppendUvarint(b, uint64(len(fs)))
	for _, f := range fs {
		for _, s := range [...]string{f.Subject, f.Relation, f.Value} {
			b = wire.AppendPrefixed(b, []byte(s))
		}
	}
	return b
}

// ReadWire reads what AppendWire wrote, at most max facts; d's sticky
// error says whether it could. The facts are as read: the caller judges
// whether a damaged record's are facts at all.
func ReadWire(d *wire.Reader, max int) []engram.Fact {
	n := d.Count(max)
	var fs []engram.Fact
	for i := 0; i < n && d.Err == nil; i++ {
		fs = append(fs, engram.Fact{Subject: string(d.Prefixed()), Relation: string(d.Prefixed()), Value: string(d.Prefixed())})
	}
	return fs
}
