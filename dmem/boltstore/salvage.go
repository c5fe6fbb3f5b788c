package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/store"
)

// SalvageReport says what [Salvage] recovered and what it lost.
type SalvageReport struct {
	// Namespaces, Units, Logged, Terms and States count what was copied:
	// namespaces, stored units, eviction-log entries, term counts and
	// learned states.
	Namespaces, Units, Logged, Terms, States int
	// Lost counts the records found damaged and left behind: units and
	// log entries that do not decode, term counts, states that do not check.
	Lost int
	// Damage says what was damaged, the first maxDamageNotes things: parts
	// of the file that could not be read (and all they held), and records
	// left behind, by namespace and key.
	Damage []string
}

const maxDamageNotes = 100

func (r *SalvageReport) note(format string, args ...any) {
	if len(r.Damage) < maxDamageNotes {
		r.Damage = append(r.Damage, fmt.Sprintf(format, args...))
	}
}

// SalvageOption configures [Salvage]. The zero options are the defaults.
type SalvageOption func(*salvageOptions)

type salvageOptions struct {
	record func(store.Record) error
	state  func([]byte) error
}

// WithRecordCheck makes Salvage leave behind, as lost, the units and log
// entries whose record check refuses: those whose Data the memory that
// wrote them cannot read. Default: every record that decodes is copied.
func WithRecordCheck(check func(store.Record) error) SalvageOption {
	return func(o *salvageOptions) { o.record = check }
}

// WithStateCheck makes Salvage leave behind, as lost, a learned state that
// check refuses, so that the memory relearns it rather than fail to open.
// Default: every state is copied.
func WithStateCheck(check func(state []byte) error) SalvageOption {
	return func(o *salvageOptions) { o.state = check }
}

// salvaged is what Salvage found of one namespace.
type salvaged struct {
	units, log []store.Record
	terms      map[string]int64
	state      []byte
	next       int64
}

// Salvage copies every intact record of the store at from (its directory,
// or its file) into a new store in the directory to, which must not hold
// one yet; open it with [Open]. It reads the damaged file itself, page by
// page, never through bbolt or a mapping, so no damage can crash it: a
// page that cannot be read costs what lies under it, a record that does
// not decode costs that record, and what the checks refuse
// ([WithRecordCheck], [WithStateCheck]) is left behind. The report says
// what was copied and what was lost. Salvage takes the file's lock, so the
// store must not be open; it fails with [ErrInUse] if it is, with
// [ErrCorrupt] if nothing can be read, and with fs.ErrExist if to holds a
// store. A copy that fails part way (the context ends, the disk fills) is
// removed: to holds a whole copy or none. dmem.Salvage is Salvage checking records and states as a dmem
// memory reads them.
func Salvage(ctx context.Context, from, to string, opts ...SalvageOption) (SalvageReport, error) {
	if err := nilContext(ctx); err != nil {
		return SalvageReport{}, err
	}
	var o salvageOptions
	for i, opt := range opts {
		if opt == nil {
			return SalvageReport{}, fmt.Errorf("boltstore: option %d of %d is nil: %w", i+1, len(opts), engram.ErrInvalidOption)
		}
		opt(&o)
	}
	var rep SalvageReport
	src := from
	if fi, err := os.Stat(src); err == nil && fi.IsDir() {
		src = filepath.Join(src, FileName)
	}
	src, err := filepath.Abs(src)
	if err != nil {
		return rep, fmt.Errorf("boltstore: salvage: %w", err)
	}
	if real, err := realPath(filepath.Dir(src)); err == nil && filepath.Base(src) == FileName {
		src = real // the name Open knows it by, to see that it is open
	}
	dst, err := filepath.Abs(filepath.Join(to, FileName))
	if err != nil {
		return rep, fmt.Errorf("boltstore: salvage: %w", err)
	}
	if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
		return rep, fmt.Errorf("boltstore: salvage: %s already exists: salvage into a new directory: %w", dst, fs.ErrExist)
	}
	spaces, err := salvageRead(ctx, src, &o, &rep)
	if err != nil {
		return rep, err
	}
	if len(spaces) == 0 && len(rep.Damage) > 0 {
		// Not an empty store: one whose every namespace was lost.
		return rep, corrupt(src, rep.Damage[0]+": nothing can be salvaged")
	}
	s, err := Open(ctx, to)
	if err != nil {
		return rep, fmt.Errorf("boltstore: salvage: %w", err)
	}
	err = salvageWrite(ctx, s, spaces, &rep)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		// A store half written would open as if it were whole: remove it,
		// so that a second try can write into the same directory.
		if rerr := os.Remove(dst); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			return rep, fmt.Errorf("boltstore: salvage into %s: %w (and the partial copy could not be removed: %v)", dst, err, rerr)
		}
		return rep, fmt.Errorf("boltstore: salvage into %s: %w", dst, err)
	}
	return rep, nil
}

// salvageRead collects what the file at path still holds, by namespace.
func salvageRead(ctx context.Context, path string, o *salvageOptions, rep *SalvageReport) (map[engram.Namespace]*salvaged, error) {
	openFiles.Lock()
	inUse := openFiles.paths[path]
	openFiles.Unlock()
	if inUse {
		return nil, fmt.Errorf("boltstore: salvage: %s is open in this process: close it first: %w", path, ErrInUse)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("boltstore: salvage: %w", err)
	}
	defer f.Close()
	if err := lockFile(ctx, f, path); err != nil {
		return nil, fmt.Errorf("boltstore: salvage: %w", err)
	}
	defer unlock(f)
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("boltstore: salvage: %w", err)
	}
	w, err := newWalker(f, fi.Size(), true)
	if err == nil {
		return salvageTree(ctx, w, path, o, rep)
	}
	// Both meta pages are gone: look for the page that held the root
	// bucket, in every page of the usual size, and take the copy that
	// yields the most.
	var best map[engram.Namespace]*salvaged
	var bestRep SalvageReport
	bestN := -1
	const ps = 4096
	for _, id := range rootCandidates(f, fi.Size(), ps) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hwm := uint64(fi.Size() / ps)
		w := &fileWalker{r: f, meta: boltMeta{pageSize: ps, root: id, hwm: hwm}, used: make([]bool, hwm), free: make([]bool, hwm), lenient: true}
		var r SalvageReport
		spaces, err := salvageTree(ctx, w, path, o, &r)
		if err != nil {
			continue
		}
		n := 0
		for _, sp := range spaces {
			n += len(sp.units) + len(sp.log)
		}
		if n > bestN {
			best, bestRep, bestN = spaces, r, n
		}
	}
	if best == nil {
		return nil, corrupt(path, err.Error()+"; no root bucket found either: nothing can be salvaged")
	}
	*rep = bestRep
	rep.note("%s: %v; salvaged from a copy of the root bucket's page", path, err)
	return best, nil
}

// rootCandidates returns the leaf pages of the file, of page size ps, that
// hold dmem's root bucket: what a meta page points to.
func rootCandidates(f io.ReaderAt, size, ps int64) []uint64 {
	var out []uint64
	p := make([]byte, ps)
	for id := int64(2); id < size/ps; id++ {
		if _, err := f.ReadAt(p, id*ps); err != nil {
			break
		}
		if ne.Uint64(p) != uint64(id) || ne.Uint16(p[8:]) != leafPageFlag {
			continue
		}
		n := int(ne.Uint16(p[10:]))
		for i := range n {
			e := pageHeaderSize + i*elemSize
			if e+elemSize > len(p) {
				break
			}
			pos, ks := int64(ne.Uint32(p[e+4:])), int64(ne.Uint32(p[e+8:]))
			start := int64(e) + pos
			if ne.Uint32(p[e:])&bucketLeafFlag != 0 && start+ks <= ps && string(p[start:start+ks]) == string(rootBucket) {
				out = append(out, uint64(id))
				break
			}
		}
	}
	return out
}

// salvageTree collects what the tree w walks still holds, by namespace.
func salvageTree(ctx context.Context, w *fileWalker, path string, o *salvageOptions, rep *SalvageReport) (map[engram.Namespace]*salvaged, error) {
	spaces := make(map[engram.Namespace]*salvaged)
	w.emit = func(p [][]byte, k, v []byte) {
		if len(p) != 3 || string(p[0]) != string(rootBucket) {
			return
		}
		ns, ok := parseNSKey(p[1])
		if !ok {
			rep.Lost++
			rep.note("a namespace key %x that does not decode", p[1])
			return
		}
		sp := spaces[ns]
		if sp == nil {
			sp = &salvaged{terms: make(map[string]int64)}
			spaces[ns] = sp
		}
		switch string(p[2]) {
		case string(unitsBucket), string(logBucket):
			r, err := decodeRecord(k, v)
			if err == nil && o.record != nil {
				err = o.record(r)
			}
			if err != nil {
				rep.Lost++
				rep.note("namespace %s: %s record %x does not decode", ns, p[2], k)
				return
			}
			if string(p[2]) == string(unitsBucket) {
				sp.units = append(sp.units, r)
			} else {
				r.Embedding = nil
				sp.log = append(sp.log, r)
			}
		case string(termsBucket):
			n, m := binary.Varint(v)
			if m <= 0 || m != len(v) || len(k) == 0 {
				rep.Lost++
				rep.note("namespace %s: the count of term %q does not decode", ns, k)
				return
			}
			sp.terms[string(k)] += n
		case string(metaBucket):
			switch string(k) {
			case string(stateKey):
				if err := checkState(o, v); err != nil {
					rep.Lost++
					rep.note("namespace %s: the state record is damaged (%v); left behind", ns, err)
					return
				}
				sp.state = append([]byte(nil), v...)
			case string(nextKey):
				if len(v) == 8 {
					sp.next = max(0, int64(binary.BigEndian.Uint64(v)))
				}
			}
		}
	}
	w.used[0], w.used[1] = true, true
	if err := w.tree(w.meta.root, nil, nil, nil, 0); err != nil {
		return nil, fmt.Errorf("boltstore: salvage: %w", err)
	}
	for _, err := range w.damaged {
		rep.note("%s: %v, and what lay under it, is lost", path, err)
	}
	return spaces, ctx.Err()
}

// salvageWrite commits what was salvaged into s.
func salvageWrite(ctx context.Context, s *Store, spaces map[engram.Namespace]*salvaged, rep *SalvageReport) error {
	const chunk = 512
	for ns, sp := range spaces {
		next := sp.next
		for _, r := range slices.Concat(sp.units, sp.log) {
			next = max(next, r.Seq+1)
		}
		if next > 0 {
			// The counter goes on where the damaged store's stopped.
			if _, err := s.Reserve(ctx, ns, int(min(next, 1<<62))); err != nil {
				return err
			}
		}
		var ops []store.Op
		add := func(op store.Op) {
			if err := op.Check(); err != nil {
				rep.Lost++
				rep.note("namespace %s: %v", ns, err)
				return
			}
			ops = append(ops, op)
		}
		flush := func(force bool) error {
			if len(ops) == 0 || len(ops) < chunk && !force {
				return nil
			}
			err := s.Commit(ctx, ns, ops)
			ops = ops[:0]
			return err
		}
		for _, r := range sp.units {
			add(store.Put(r))
			if err := flush(false); err != nil {
				return err
			}
		}
		for _, r := range sp.log {
			add(store.Log(r))
			if err := flush(false); err != nil {
				return err
			}
		}
		for t, n := range sp.terms {
			add(store.Term(t, n))
			if err := flush(false); err != nil {
				return err
			}
		}
		if sp.state != nil {
			ops = append(ops, store.State(sp.state))
			rep.States++
		}
		ops = append(ops, store.Evict(math.MaxInt32)) // commits at least once: the counter, the namespace
		if err := flush(true); err != nil {
			return err
		}
		rep.Namespaces++
		rep.Units += len(sp.units)
		rep.Logged += len(sp.log)
		rep.Terms += len(sp.terms)
	}
	return nil
}

// checkState is the state check, if any, of a copy of v: a check may keep
// what it is given, and v lies in a page.
func checkState(o *salvageOptions, v []byte) error {
	if o.state == nil {
		return nil
	}
	return o.state(bytes.Clone(v))
}
