package glove

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
)

// tableGz is written by internal/gen from GloVe 6B 100-d; see LICENSE.
//
//go:embed table.bin.gz
var tableGz []byte

// table is the decoded vocabulary: row i of vecs is the vector of the
// word whose index entry is i.
type table struct {
	index   map[string]int32
	rank    []int32   // per row: frequency rank in GloVe's vocabulary
	weight  []float32 // per row: what Embed weighs the vector by, 0 for stop words
	vecs    []float32 // rows of Dim dequantized components
	maxRank int       // rank of the rarest word
	// common is the unit direction Embed removes: the top principal
	// direction of the vectors as sentences weigh them (see internal/gen).
	common [Dim]float64
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
			panic("glove: corrupt embedded table: " + err.Error())
		}
		tab = t
	})
	return tab
}

// decode parses the table format internal/gen writes (integers are
// uvarints):
//
//	"GLV1" N
//	N words: length, bytes (most frequent first)
//	N ranks: rank − previous rank − 1 (the previous of the first is −1)
//	N scales: float32, little-endian
//	N × Dim components: int8, component = int8 × scale
//	Dim components of the common direction: float32, little-endian
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
	r := &reader{b: raw}
	if string(r.bytes(4)) != "GLV1" {
		return nil, errors.New("bad magic")
	}
	n := r.uvarint()
	if r.err != nil || n > uint64(len(raw))/Dim {
		return nil, errors.New("bad word count")
	}

	// The words share one string, which the index keys slice.
	var keys strings.Builder
	ends := make([]int, n)
	for i := range ends {
		keys.Write(r.bytes(int(r.uvarint())))
		ends[i] = keys.Len()
	}
	t := &table{rank: make([]int32, n), weight: make([]float32, n), vecs: make([]float32, n*Dim)}
	prev := int64(-1)
	for i := range t.rank {
		prev += int64(r.uvarint()) + 1
		if prev > math.MaxInt32 {
			return nil, fmt.Errorf("word %d: rank %d out of range", i, prev)
		}
		t.rank[i] = int32(prev)
	}
	t.maxRank = int(prev)
	scales := r.bytes(4 * int(n))
	comps := r.bytes(Dim * int(n))
	common := r.bytes(4 * Dim)
	if r.err != nil {
		return nil, r.err
	}
	if len(r.b) != 0 {
		return nil, errors.New("trailing bytes")
	}
	for i := range int(n) {
		s := math.Float32frombits(binary.LittleEndian.Uint32(scales[4*i:]))
		row, q := t.vecs[i*Dim:(i+1)*Dim], comps[i*Dim:(i+1)*Dim]
		for j := range row {
			row[j] = float32(int8(q[j])) * s
		}
	}

	var norm float64
	for i := range t.common {
		t.common[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(common[4*i:])))
		norm += t.common[i] * t.common[i]
	}
	if math.Abs(norm-1) > 1e-5 {
		return nil, fmt.Errorf("common direction has norm² %v", norm)
	}

	all := keys.String()
	t.index = make(map[string]int32, n)
	start := 0
	for i, end := range ends {
		w := all[start:end]
		if _, dup := t.index[w]; dup {
			return nil, fmt.Errorf("word %q twice", w)
		}
		t.index[w] = int32(i)
		if !isStop(w) {
			t.weight[i] = float32(weightOfRank(int(t.rank[i])))
		}
		start = end
	}
	return t, nil
}

// row returns the vector of row i, capped so that appending copies.
func (t *table) row(i int32) []float32 {
	return t.vecs[int(i)*Dim : int(i+1)*Dim : int(i+1)*Dim]
}

// reader reads the uncompressed table, remembering the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(msg string) {
	if r.err == nil {
		r.err = errors.New(msg)
	}
	r.b = nil
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("truncated varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(n int) []byte {
	if n > len(r.b) || n < 0 {
		r.fail("truncated table")
		return nil
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}
