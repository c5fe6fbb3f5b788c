package lexicon

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/engram-go/engram/internal/wire"
)

// tableGz is written by internal/gen from WordNet 3.0; see LICENSE-WordNet.
//
//go:embed table.bin.gz
var tableGz []byte

// table is the decoded lexicon. Decoding reads the stems and the hypernym
// graph; a stem's concept vector is computed from its senses the first
// time it is asked for and cached in vecs.
type table struct {
	index map[string]uint32 // stem → stem number
	conf  []byte            // per stem: confidence, 0..255
	data  []uint32          // per stem: offset of its senses in raw
	raw   []byte            // the uncompressed table
	vecs  []atomic.Pointer[[]Concept]

	nsyn   uint32
	ic     []byte   // per synset: information content, 0..255
	file   []byte   // per synset: lexicographer file, 0..63
	hypOff []uint32 // hypernyms of synset i: hyp[hypOff[i]:hypOff[i+1]]
	hyp    []uint32
}

var (
	tableOnce sync.Once
	tab       *table
)

// load decodes the embedded table on first use. The table is built by the
// generator and checked by the tests, so a failure is a build defect.
func load() *table {
	tableOnce.Do(func() {
		t, err := decode(tableGz)
		if err != nil {
			panic("lexicon: corrupt embedded table: " + err.Error())
		}
		tab = t
	})
	return tab
}

// decode parses the table format internal/gen writes (integers are
// varints, weights and confidences bytes):
//
//	"LEX2"
//	N; N information-content bytes; N lexicographer-file bytes;
//	per synset: k, k × (id − hypernym id)
//	M; per stem: shared prefix length, suffix length, suffix (stems sorted)
//	M confidence bytes
//	per stem: senses, then related forms: k, k × (synset id, weight byte)
func decode(gz []byte) (*table, error) {
	if len(gz) < 4 {
		return nil, errors.New("truncated gzip")
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	// gzip's trailer holds the uncompressed size.
	raw := make([]byte, binary.LittleEndian.Uint32(gz[len(gz)-4:]))
	if _, err := io.ReadFull(zr, raw); err != nil {
		return nil, err
	}
	r := wire.New(raw, func(msg string) error { return errors.New(msg) })
	if string(r.Bytes(4)) != "LEX2" {
		return nil, errors.New("bad magic")
	}
	t := &table{raw: raw}

	nsyn := r.Uvarint()
	if nsyn > uint64(len(raw)) {
		return nil, errors.New("bad synset count")
	}
	t.nsyn = uint32(nsyn)
	t.ic = r.Bytes(int(nsyn))
	t.file = r.Bytes(int(nsyn))
	for i, f := range t.file {
		if f >= 64 {
			return nil, fmt.Errorf("synset %d: lexicographer file %d out of range", i, f)
		}
	}
	t.hypOff = make([]uint32, nsyn+1)
	t.hyp = make([]uint32, 0, nsyn+nsyn/8)
	for i := range int64(nsyn) {
		for k := r.Uvarint(); k > 0 && r.Err == nil; k-- {
			h := i - r.Varint()
			if h < 0 || h >= int64(nsyn) {
				return nil, fmt.Errorf("synset %d: hypernym %d out of range", i, h)
			}
			t.hyp = append(t.hyp, uint32(h))
		}
		t.hypOff[i+1] = uint32(len(t.hyp))
	}

	nstem := int(r.Uvarint())
	if r.Err != nil || nstem > len(r.B) {
		return nil, fmt.Errorf("stems: %v", r.Err)
	}
	keys := make([]byte, 0, 8*nstem)
	ends := make([]uint32, nstem)
	prev := 0 // start of the previous stem in keys
	for i := range nstem {
		shared, n := int(r.Uvarint()), int(r.Uvarint())
		if shared > len(keys)-prev {
			return nil, fmt.Errorf("stem %d: bad prefix", i)
		}
		start := len(keys)
		keys = append(keys, keys[prev:prev+shared]...)
		keys = append(keys, r.Bytes(n)...)
		prev = start
		ends[i] = uint32(len(keys))
	}
	t.conf = r.Bytes(nstem)

	// Note where each stem's senses start, checking them on the way, so
	// that vector and Kinds never meet a bad byte.
	t.data = make([]uint32, nstem)
	for i := range nstem {
		t.data[i] = uint32(len(raw) - len(r.B))
		for range 2 {
			for k := r.Uvarint(); k > 0 && r.Err == nil; k-- {
				if id := r.Uvarint(); id >= nsyn {
					return nil, fmt.Errorf("stem %d: synset %d out of range", i, id)
				}
				r.Bytes(1)
			}
		}
	}
	if r.Err != nil {
		return nil, r.Err
	}
	if len(r.B) != 0 {
		return nil, errors.New("trailing bytes")
	}

	all := string(keys)
	t.index = make(map[string]uint32, nstem)
	start := uint32(0)
	for i, end := range ends {
		t.index[all[start:end]] = uint32(i)
		start = end
	}
	t.vecs = make([]atomic.Pointer[[]Concept], nstem)
	return t, nil
}

// concepts returns the vector of stem number i, computing it once.
func (t *table) concepts(i uint32) []Concept {
	if p := t.vecs[i].Load(); p != nil {
		return *p
	}
	v := t.vector(i)
	if !t.vecs[i].CompareAndSwap(nil, &v) {
		return *t.vecs[i].Load() // another goroutine won; share its slice
	}
	return v
}
