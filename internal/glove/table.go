package glove

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"sync"
)

// tableGz is written by internal/gen from GloVe 6B 100-d; see LICENSE.
//
//go:embed table.bin.gz
var tableGz []byte

// table is the vocabulary as the file stores it: each vector stays Dim
// int8 components and a float32 scale, about a quarter of its float32
// form, and is decoded when it is read ([Vector], [Embed]). Words are found
// through an open-addressing hash index over one string, not a map, which
// would cost a string header and a hash slot per word.
type table struct {
	words   string   // every word, back to back, most frequent first
	offs    []uint32 // row i's word is words[offs[i]:offs[i+1]]
	index   index
	rank    []int32   // per row: frequency rank in GloVe's vocabulary
	weight  []float32 // per row: what Embed weighs the vector by, 0 for stop words
	scale   []float32 // per row: the step of its components
	comps   []byte    // rows of Dim components, int8 (component = int8 × scale)
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
// uvarints) as it decompresses it, straight into the table's arrays, so
// that the uncompressed file is never held whole beside them:
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
	// gzip's trailer holds the uncompressed size, which bounds N.
	size := uint64(binary.LittleEndian.Uint32(gz[len(gz)-4:]))
	r := &reader{r: bufio.NewReader(zr)}
	var magic [4]byte
	r.full(magic[:])
	if r.err == nil && string(magic[:]) != "GLV1" {
		return nil, errors.New("bad magic")
	}
	n := r.uvarint()
	if r.err != nil {
		return nil, r.err
	}
	if n == 0 || n > size/Dim {
		return nil, errors.New("bad word count")
	}

	t := &table{
		offs:   make([]uint32, n+1),
		rank:   make([]int32, n),
		weight: make([]float32, n),
		scale:  make([]float32, n),
		comps:  make([]byte, n*Dim),
	}
	var words []byte
	for i := range n {
		l := r.uvarint()
		if l == 0 || l > size {
			r.fail(errors.New("bad word length"))
		}
		if r.err != nil {
			return nil, r.err
		}
		words = append(words, make([]byte, l)...)
		r.full(words[len(words)-int(l):])
		t.offs[i+1] = uint32(len(words))
	}
	t.words = string(words)
	prev := int64(-1)
	for i := range t.rank {
		prev += int64(r.uvarint()) + 1
		if prev > math.MaxInt32 {
			return nil, fmt.Errorf("word %d: rank %d out of range", i, prev)
		}
		t.rank[i] = int32(prev)
	}
	t.maxRank = int(prev)
	var b [4]byte
	for i := range t.scale {
		r.full(b[:])
		t.scale[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[:]))
	}
	r.full(t.comps)
	var norm float64
	for i := range t.common {
		r.full(b[:])
		t.common[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[:])))
		norm += t.common[i] * t.common[i]
	}
	r.end()
	if r.err != nil {
		return nil, r.err
	}
	if math.Abs(norm-1) > 1e-5 {
		return nil, fmt.Errorf("common direction has norm² %v", norm)
	}

	t.index = newIndex(int(n))
	for i := range int32(n) {
		w := t.word(i)
		if !t.index.insert(t, w, i) {
			return nil, fmt.Errorf("word %q twice", w)
		}
		if !isStop(w) {
			t.weight[i] = float32(weightOfRank(int(t.rank[i])))
		}
	}
	return t, nil
}

// word returns the word of row i.
func (t *table) word(i int32) string { return t.words[t.offs[i]:t.offs[i+1]] }

// vector writes the vector of row i into v, each component rounded to
// float32 as the table's float32 form had it.
func (t *table) vector(i int32, v *[Dim]float32) {
	s := t.scale[i]
	q := t.comps[int(i)*Dim:][:Dim]
	for j := range v {
		v[j] = float32(int8(q[j])) * s
	}
}

// An index finds a word's row: open addressing with linear probing over
// 1.5 to 3 times as many slots as words. A slot holds row+1 in its low
// bits (0 is empty) and a tag of the word's hash above them, so that a
// probe compares a word only when the tags agree.
type index struct {
	slots    []uint32
	rowBits  uint   // low bits of a slot that hold row+1
	slotBits uint   // log₂ len(slots)
	rowMask  uint32 // 1<<rowBits − 1
}

func newIndex(n int) index {
	slotBits := uint(bits.Len(uint(n + n/2))) // at most 2/3 full
	return index{
		slots:    make([]uint32, 1<<slotBits),
		rowBits:  uint(bits.Len(uint(n))),
		slotBits: slotBits,
		rowMask:  1<<bits.Len(uint(n)) - 1,
	}
}

// hash is FNV-1a, mixed (splitmix64's finaliser) so that every bit of it
// depends on every byte: the slot comes from its top bits, the tag from
// its low ones.
func hash[W string | []byte](w W) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(w); i++ {
		h ^= uint64(w[i])
		h *= 1099511628211
	}
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	return h
}

// insert adds w as row i, unless the index holds it already.
func (x *index) insert(t *table, w string, i int32) bool {
	if _, dup := lookup(t, w); dup {
		return false
	}
	h := hash(w)
	tag := uint32(h) &^ x.rowMask
	mask := uint64(len(x.slots) - 1)
	for s := h >> (64 - x.slotBits); ; s = (s + 1) & mask {
		if x.slots[s] == 0 {
			x.slots[s] = tag | uint32(i+1)
			return true
		}
	}
}

// lookup returns the row of w and whether the table holds it.
func lookup[W string | []byte](t *table, w W) (int32, bool) {
	x := &t.index
	h := hash(w)
	tag := uint32(h) &^ x.rowMask
	mask := uint64(len(x.slots) - 1)
	for s := h >> (64 - x.slotBits); ; s = (s + 1) & mask {
		v := x.slots[s]
		if v == 0 {
			return 0, false
		}
		if v&^x.rowMask == tag {
			if i := int32(v&x.rowMask) - 1; t.word(i) == string(w) {
				return i, true
			}
		}
	}
}

// reader reads the uncompressed table, remembering the first error.
type reader struct {
	r   *bufio.Reader
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, err := binary.ReadUvarint(r.r)
	if err != nil {
		r.fail(truncated(err))
	}
	return v
}

// full fills p.
func (r *reader) full(p []byte) {
	if r.err != nil {
		return
	}
	if _, err := io.ReadFull(r.r, p); err != nil {
		r.fail(truncated(err))
	}
}

// end checks that the table ends here, which also checks gzip's checksum.
func (r *reader) end() {
	if r.err != nil {
		return
	}
	switch _, err := r.r.ReadByte(); err {
	case io.EOF:
	case nil:
		r.fail(errors.New("trailing bytes"))
	default:
		r.fail(err)
	}
}

// truncated names an early end of the table as such.
func truncated(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errors.New("truncated table")
	}
	return err
}
