package boltstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

// bbolt's file format, as go.etcd.io/bbolt/internal/common lays it out:
// pages of the meta's page size, each with a 16-byte header (id, flags,
// count, overflow); meta pages 0 and 1; branch and leaf pages of 16-byte
// elements whose keys and values sit at offsets from the element; a
// bucket's value holding its root page, or its whole (inline) page.
const (
	pageHeaderSize   = 16
	elemSize         = 16
	metaSize         = 64
	bucketHeaderSize = 16
	branchPageFlag   = 0x01
	leafPageFlag     = 0x02
	freelistPageFlag = 0x10
	bucketLeafFlag   = 0x01
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	noFreelist       = ^uint64(0)
	maxTreeDepth     = 64
)

var ne = binary.NativeEndian // bbolt writes its file in the machine's order

// boltMeta is what a meta page holds.
type boltMeta struct {
	pageSize            int64
	root, freelist, hwm uint64
	txid                uint64
}

// readMeta reads the meta page at off and checks it as bbolt does.
func readMeta(r io.ReaderAt, off int64) (boltMeta, error) {
	var b [pageHeaderSize + metaSize]byte
	if _, err := r.ReadAt(b[:], off); err != nil {
		return boltMeta{}, err
	}
	m := b[pageHeaderSize:]
	switch {
	case ne.Uint32(m[0:]) != boltMagic:
		return boltMeta{}, errors.New("not a bbolt meta page")
	case ne.Uint32(m[4:]) != boltVersion:
		return boltMeta{}, fmt.Errorf("bbolt format version %d, not %d", ne.Uint32(m[4:]), boltVersion)
	}
	h := fnv.New64a()
	h.Write(m[:56])
	if h.Sum64() != ne.Uint64(m[56:]) {
		return boltMeta{}, errors.New("meta page checksum mismatch")
	}
	return boltMeta{pageSize: int64(ne.Uint32(m[8:])), root: ne.Uint64(m[16:]), freelist: ne.Uint64(m[32:]),
		hwm: ne.Uint64(m[40:]), txid: ne.Uint64(m[48:])}, nil
}

// fileMeta returns the meta page bbolt would use: the valid one with the
// higher transaction id, the page size found as bbolt finds it. A lenient
// read takes a truncated file for what it still holds.
func fileMeta(r io.ReaderAt, size int64, lenient bool) (boltMeta, error) {
	if size < 2*1024 {
		return boltMeta{}, fmt.Errorf("the file has %d bytes, too few for bbolt's two meta pages", size)
	}
	m0, err0 := readMeta(r, 0)
	ps := m0.pageSize
	if err0 != nil {
		// Page 0 is damaged: find page 1 where bbolt looks for it.
		for i := 0; i <= 14; i++ {
			pos := int64(1024) << i
			if pos >= size-1024 {
				break
			}
			if m, err := readMeta(r, pos); err == nil && m.pageSize == pos {
				ps = pos
				break
			}
		}
	}
	if ps < 1024 || ps > 1<<24 || ps&(ps-1) != 0 {
		return boltMeta{}, fmt.Errorf("both meta pages are damaged (page 0: %v)", err0)
	}
	m1, err1 := readMeta(r, ps)
	var m boltMeta
	switch {
	case err0 == nil && (err1 != nil || m0.txid >= m1.txid):
		m = m0
	case err1 == nil:
		m = m1
	default:
		return boltMeta{}, fmt.Errorf("both meta pages are damaged (page 0: %v; page 1: %v)", err0, err1)
	}
	if m.pageSize != ps {
		return boltMeta{}, fmt.Errorf("meta pages disagree on the page size (%d, %d)", ps, m.pageSize)
	}
	if lenient {
		m.hwm = min(m.hwm, uint64(size/ps))
	}
	if m.hwm < 2 || m.hwm > uint64(size/ps) {
		return boltMeta{}, fmt.Errorf("the file has %d bytes, %d whole pages of %d bytes, but its meta page counts %d (truncated?)", size, size/ps, ps, m.hwm)
	}
	return m, nil
}

// fileWalker walks a bbolt file's tree, reading pages with ReadAt, never
// through a mapping, checking every offset before it reads there.
type fileWalker struct {
	r    io.ReaderAt
	meta boltMeta
	used []bool // pages in the tree or the freelist
	free []bool // pages the freelist holds

	// lenient skips a damaged subtree, counting it in damaged, where a
	// strict walk stops at the first damage.
	lenient bool
	damaged []error
	// emit, if set, gets each key and value that is not a bucket, under
	// the keys of the buckets that hold it.
	emit func(path [][]byte, k, v []byte)
	// visit, if set, gets each page of the tree read, with its overflow.
	visit func(id uint64, p []byte)
}

func newWalker(r io.ReaderAt, size int64, lenient bool) (*fileWalker, error) {
	m, err := fileMeta(r, size, lenient)
	if err != nil {
		return nil, err
	}
	return &fileWalker{r: r, meta: m, used: make([]bool, m.hwm), free: make([]bool, m.hwm), lenient: lenient}, nil
}

// check walks the whole file strictly: freelist, tree, and every page
// below the high-water mark either in use or free, as bbolt's own Check.
func (w *fileWalker) check() error {
	w.used[0], w.used[1] = true, true
	if err := w.freelist(); err != nil {
		return err
	}
	if err := w.tree(w.meta.root, nil, nil, nil, 0); err != nil {
		return err
	}
	if w.meta.freelist == noFreelist {
		return nil // bbolt rebuilds the freelist from what the tree leaves
	}
	for id := uint64(2); id < w.meta.hwm; id++ {
		if !w.used[id] && !w.free[id] {
			return fmt.Errorf("page %d is neither in use nor free", id)
		}
	}
	return nil
}

// page reads page id and its overflow pages, marking them used.
func (w *fileWalker) page(id uint64) ([]byte, error) {
	if id < 2 || id >= w.meta.hwm {
		return nil, fmt.Errorf("page %d is out of bounds (the file has %d)", id, w.meta.hwm)
	}
	ps := w.meta.pageSize
	var h [pageHeaderSize]byte
	if _, err := w.r.ReadAt(h[:], int64(id)*ps); err != nil {
		return nil, fmt.Errorf("page %d: %w", id, err)
	}
	if got := ne.Uint64(h[:]); got != id {
		return nil, fmt.Errorf("page %d says it is page %d", id, got)
	}
	overflow := uint64(ne.Uint32(h[12:]))
	if overflow >= w.meta.hwm-id {
		return nil, fmt.Errorf("page %d runs %d pages past the end of the file", id, overflow+1)
	}
	for i := id; i <= id+overflow; i++ {
		if w.used[i] {
			return nil, fmt.Errorf("page %d is used twice", i)
		}
		if !w.lenient && w.free[i] {
			return nil, fmt.Errorf("page %d is in use and free", i)
		}
		w.used[i] = true
	}
	b := make([]byte, int64(overflow+1)*ps)
	if _, err := w.r.ReadAt(b, int64(id)*ps); err != nil {
		return nil, fmt.Errorf("page %d: %w", id, err)
	}
	return b, nil
}

// freelist reads the freelist page, if the file keeps one.
func (w *fileWalker) freelist() error {
	id := w.meta.freelist
	if id == noFreelist {
		return nil
	}
	p, err := w.page(id)
	if err != nil {
		return fmt.Errorf("freelist: %w", err)
	}
	if ne.Uint16(p[8:])&freelistPageFlag == 0 {
		return fmt.Errorf("freelist: page %d is not a freelist page (flags %#x)", id, ne.Uint16(p[8:]))
	}
	data := p[pageHeaderSize:]
	n := uint64(ne.Uint16(p[10:]))
	if n == 0xFFFF {
		n, data = ne.Uint64(data), data[8:]
	}
	if n > uint64(len(data))/8 {
		return fmt.Errorf("freelist: page %d lists %d pages, more than it can hold", id, n)
	}
	for i := range n {
		f := ne.Uint64(data[8*i:])
		switch {
		case f < 2 || f >= w.meta.hwm:
			return fmt.Errorf("freelist: page %d is out of bounds", f)
		case w.free[f]:
			return fmt.Errorf("freelist: page %d is listed twice", f)
		case w.used[f]:
			return fmt.Errorf("freelist: page %d is in use", f)
		}
		w.free[f] = true
	}
	return nil
}

// fail returns err in a strict walk; a lenient one notes it and goes on.
func (w *fileWalker) fail(err error) error {
	if !w.lenient {
		return err
	}
	w.damaged = append(w.damaged, err)
	return nil
}

// tree walks the subtree at page id, whose keys lie in [lo, hi) (nil: no
// bound), of the bucket at path.
func (w *fileWalker) tree(id uint64, path [][]byte, lo, hi []byte, depth int) error {
	if depth > maxTreeDepth {
		return w.fail(fmt.Errorf("page %d: the tree is deeper than %d", id, maxTreeDepth))
	}
	p, err := w.page(id)
	if err != nil {
		return w.fail(err)
	}
	if w.visit != nil {
		w.visit(id, p)
	}
	switch ne.Uint16(p[8:]) {
	case branchPageFlag:
		keys, kids, err := branchElems(p)
		if err == nil {
			err = ordered(keys, lo, hi)
		}
		if err != nil {
			return w.fail(fmt.Errorf("page %d: %w", id, err))
		}
		for i, kid := range kids {
			next := hi
			if i+1 < len(keys) {
				next = keys[i+1]
			}
			if err := w.tree(kid, path, keys[i], next, depth+1); err != nil {
				return err
			}
		}
		return nil
	case leafPageFlag:
		if err := w.leaf(p, path, lo, hi, depth); err != nil {
			return w.fail(fmt.Errorf("page %d: %w", id, err))
		}
		return nil
	}
	return w.fail(fmt.Errorf("page %d: type %#x is neither branch nor leaf", id, ne.Uint16(p[8:])))
}

// leaf checks the leaf page p (a whole page, or an inline bucket's) and
// walks the buckets it holds.
func (w *fileWalker) leaf(p []byte, path [][]byte, lo, hi []byte, depth int) error {
	n := int(ne.Uint16(p[10:]))
	if pageHeaderSize+n*elemSize > len(p) {
		return fmt.Errorf("%d elements do not fit in %d bytes", n, len(p))
	}
	keys := make([][]byte, n)
	vals := make([][]byte, n)
	flags := make([]uint32, n)
	for i := range n {
		e := pageHeaderSize + i*elemSize
		flags[i] = ne.Uint32(p[e:])
		pos, ks, vs := uint64(ne.Uint32(p[e+4:])), uint64(ne.Uint32(p[e+8:])), uint64(ne.Uint32(p[e+12:]))
		if flags[i]&^bucketLeafFlag != 0 {
			return fmt.Errorf("element %d has flags %#x", i, flags[i])
		}
		start := uint64(e) + pos
		if start+ks+vs > uint64(len(p)) {
			return fmt.Errorf("element %d lies outside its page", i)
		}
		keys[i], vals[i] = p[start:start+ks], p[start+ks:start+ks+vs]
	}
	if err := ordered(keys, lo, hi); err != nil {
		return err
	}
	for i := range n {
		sub := append(path[:len(path):len(path)], keys[i])
		if flags[i]&bucketLeafFlag == 0 {
			if w.emit != nil {
				w.emit(path, keys[i], vals[i])
			}
			continue
		}
		v := vals[i]
		if len(v) < bucketHeaderSize {
			if err := w.fail(fmt.Errorf("bucket %q: its header has %d bytes", keys[i], len(v))); err != nil {
				return err
			}
			continue
		}
		if root := ne.Uint64(v); root != 0 {
			if err := w.tree(root, sub, nil, nil, depth+1); err != nil {
				return err
			}
			continue
		}
		// An inline bucket: its page is the rest of the value.
		in := v[bucketHeaderSize:]
		var err error
		switch {
		case depth+1 > maxTreeDepth:
			err = fmt.Errorf("bucket %q: buckets nest deeper than %d", keys[i], maxTreeDepth)
		case len(in) < pageHeaderSize || ne.Uint16(in[8:]) != leafPageFlag:
			err = fmt.Errorf("bucket %q: its inline page is damaged", keys[i])
		default:
			if err = w.leaf(in, sub, nil, nil, depth+1); err != nil {
				err = fmt.Errorf("bucket %q: %w", keys[i], err)
			}
		}
		if err != nil {
			if err := w.fail(err); err != nil {
				return err
			}
		}
	}
	return nil
}

// branchElems returns the keys and child pages of the branch page p.
func branchElems(p []byte) ([][]byte, []uint64, error) {
	n := int(ne.Uint16(p[10:]))
	if n == 0 || pageHeaderSize+n*elemSize > len(p) {
		return nil, nil, fmt.Errorf("a branch of %d elements in %d bytes", n, len(p))
	}
	keys := make([][]byte, n)
	kids := make([]uint64, n)
	for i := range n {
		e := pageHeaderSize + i*elemSize
		pos, ks := uint64(ne.Uint32(p[e:])), uint64(ne.Uint32(p[e+4:]))
		start := uint64(e) + pos
		if start+ks > uint64(len(p)) {
			return nil, nil, fmt.Errorf("element %d lies outside its page", i)
		}
		keys[i], kids[i] = p[start:start+ks], ne.Uint64(p[e+8:])
	}
	return keys, kids, nil
}

// ordered checks that keys ascend strictly within [lo, hi).
func ordered(keys [][]byte, lo, hi []byte) error {
	for i, k := range keys {
		if i == 0 && lo != nil && bytes.Compare(k, lo) < 0 || i > 0 && bytes.Compare(keys[i-1], k) >= 0 {
			return fmt.Errorf("key %d is out of order", i)
		}
		if hi != nil && bytes.Compare(k, hi) >= 0 {
			return fmt.Errorf("key %d is past its parent's next key", i)
		}
	}
	return nil
}

// checkFile checks the bbolt file f at path before bbolt maps it: bbolt
// trusts its file, and a damaged one makes it panic, or fault on a read
// past the end of the mapping, which no recover catches. Every page the
// tree and the freelist reach must lie within the file, be of its kind,
// hold its elements within its bounds, in order, and be reached once.
func checkFile(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("boltstore: open: %w", err)
	}
	if fi.Size() == 0 {
		return corrupt(path, "the file is empty (0 bytes): it lost its contents; remove it to start an empty store")
	}
	w, err := newWalker(f, fi.Size(), false)
	if err == nil {
		err = w.check()
	}
	if err != nil {
		return corrupt(path, err.Error())
	}
	return nil
}
