package glove

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sync"
)

// tableBin is written by internal/gen from GloVe 6B 100-d; see LICENSE.
// It is embedded uncompressed so that the vectors are read where the
// binary holds them: the process neither decompresses them into its heap
// nor keeps the compressed pages it read resident.
//
//go:embed table.bin
var tableBin string

// table is the vocabulary over tableBin. Each vector stays as the file
// stores it, Dim int8 components and a float32 scale, and is decoded when
// it is read ([Vector], [Embed]). The heap holds only what the file cannot
// give by position: where each word is, the ranks and weights, and a hash
// index from word to row (a map would cost a string header and a hash
// slot per word on top).
type table struct {
	raw     string   // tableBin
	start   []uint32 // per row: where its word starts in raw
	size    []uint8  // per row: its word's length
	index   index
	rank    []int32   // per row: frequency rank in GloVe's vocabulary
	weight  []float32 // per row: what Embed weighs the vector by, 0 for stop words
	scales  int       // where the scales start in raw, 4 bytes a row
	comps   int       // where the components start in raw, Dim bytes a row
	maxRank int       // rank of the rarest word
	// common is the unit direction Embed removes: the top principal
	// direction of the vectors as sentences weigh them (see internal/gen).
	common [Dim]float64
}

var (
	tableOnce sync.Once
	tab       *table
)

// load indexes the embedded table on first use. The table is built by the
// generator and checked by the tests, so a failure is a build defect.
func load() *table {
	tableOnce.Do(func() {
		t, err := decode(tableBin)
		if err != nil {
			panic("glove: corrupt embedded table: " + err.Error())
		}
		tab = t
	})
	return tab
}

// decode indexes the table format internal/gen writes (integers are
// uvarints), reading the words and ranks and finding the rest by position:
//
//	"GLV1" N
//	N words: length, bytes (most frequent first)
//	N ranks: rank − previous rank − 1 (the previous of the first is −1)
//	N scales: float32, little-endian
//	N × Dim components: int8, component = int8 × scale
//	Dim components of the common direction: float32, little-endian
func decode(raw string) (*table, error) {
	r := &reader{s: raw}
	if r.bytes(4) != "GLV1" {
		return nil, errors.New("bad magic")
	}
	n := r.uvarint()
	if r.err != nil || n == 0 || n > uint64(len(raw))/Dim {
		return nil, errors.New("bad word count")
	}
	t := &table{
		raw:    raw,
		start:  make([]uint32, n),
		size:   make([]uint8, n),
		rank:   make([]int32, n),
		weight: make([]float32, n),
	}
	for i := range t.start {
		l := r.uvarint()
		if l == 0 || l > math.MaxUint8 {
			r.fail(fmt.Sprintf("word %d: length %d", i, l))
		}
		t.start[i], t.size[i] = uint32(r.pos), uint8(l)
		r.bytes(int(l))
	}
	prev := int64(-1)
	for i := range t.rank {
		prev += int64(r.uvarint()) + 1
		if prev > math.MaxInt32 {
			return nil, fmt.Errorf("word %d: rank %d out of range", i, prev)
		}
		t.rank[i] = int32(prev)
	}
	t.maxRank = int(prev)
	t.scales = r.pos
	r.bytes(4 * int(n))
	t.comps = r.pos
	r.bytes(Dim * int(n))
	var norm float64
	for i := range t.common {
		b := r.bytes(4)
		if r.err != nil {
			return nil, r.err
		}
		t.common[i] = float64(float32At(b))
		norm += t.common[i] * t.common[i]
	}
	if r.pos != len(raw) {
		return nil, errors.New("trailing bytes")
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
func (t *table) word(i int32) string {
	s := t.start[i]
	return t.raw[s : s+uint32(t.size[i])]
}

// scale returns the step of row i's components.
func (t *table) scale(i int32) float32 {
	return float32At(t.raw[t.scales+4*int(i):])
}

// row returns the Dim int8 components of row i, as bytes.
func (t *table) row(i int32) string {
	return t.raw[t.comps+Dim*int(i):][:Dim]
}

// vector writes the vector of row i into v, each component rounded to
// float32 as the table's float32 form had it.
func (t *table) vector(i int32, v *[Dim]float32) {
	s, q := t.scale(i), t.row(i)
	for j := range v {
		v[j] = int8Float[q[j]] * s
	}
}

// int8Float is each byte read as an int8 component, as a float32: one load
// in place of a conversion, which keeps Embed's inner loop as quick as it
// was over float32 rows.
var int8Float = func() (f [256]float32) {
	for b := range f {
		f[b] = float32(int8(b))
	}
	return f
}()

// float32At reads a little-endian float32 from the start of s.
func float32At(s string) float32 {
	_ = s[3]
	return math.Float32frombits(uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24)
}

// An index finds a word's row: open addressing with linear probing over
// 1.5 to 3 times as many slots as words. A slot holds row+1 in its low
// bits (0 is empty) and a tag of the word's hash above them, so that a
// probe compares a word only when the tags agree.
type index struct {
	slots    []uint32
	slotBits uint   // log₂ len(slots)
	rowMask  uint32 // the low bits of a slot, which hold row+1
}

func newIndex(n int) index {
	slotBits := uint(bits.Len(uint(n + n/2))) // at most 2/3 full
	return index{
		slots:    make([]uint32, 1<<slotBits),
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

// reader reads the table, remembering the first error.
type reader struct {
	s   string
	pos int
	err error
}

func (r *reader) fail(msg string) {
	if r.err == nil {
		r.err = errors.New(msg)
	}
	r.pos = len(r.s)
}

func (r *reader) uvarint() uint64 {
	var v uint64
	for shift := 0; r.pos < len(r.s) && shift < 64; shift += 7 {
		b := r.s[r.pos]
		r.pos++
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v
		}
	}
	r.fail("truncated or overlong varint")
	return 0
}

// bytes returns the next n bytes, or "" once the table has failed.
func (r *reader) bytes(n int) string {
	if n < 0 || n > len(r.s)-r.pos {
		r.fail("truncated table")
	}
	if r.err != nil {
		return ""
	}
	p := r.s[r.pos : r.pos+n]
	r.pos += n
	return p
}
