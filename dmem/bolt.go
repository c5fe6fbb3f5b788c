package dmem

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/store"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// boltStore is the embedded [store.Store]: one bbolt file, which is ACID, so a
// crash at any point leaves it at the last commit, and per namespace a
// chromem index of the core records, built when the namespace is first used.
// bbolt locks its file, so one process at a time uses it.
//
// Layout: a root bucket holds one bucket per namespace, keyed by the
// length-prefixed namespace, each with the buckets units, log (by Seq),
// terms and meta (state, next sequence number).
type boltStore struct {
	db   *bolt.DB
	path string // absolute, for errors

	// commitMu serialises Commit, Reserve and Close; it guards closed,
	// and each space's next, nextDirty and core.
	commitMu  sync.Mutex
	closed    bool
	syncEvery time.Duration // relaxed durability (WithSyncEvery); 0 syncs every commit
	synced    time.Time     // the last sync, with relaxed durability

	mu     sync.RWMutex // guards spaces and each space's ix
	spaces map[engram.Namespace]*space

	skipMu  sync.Mutex      // guards skipped
	skipped map[string]bool // damaged records already logged

	// logger is where damaged records are logged: the memory's
	// (WithLogger) when the memory opened the store, else slog.Default().
	// Set before the store is used.
	logger *slog.Logger
}

// space is what the store keeps in memory for one namespace.
type space struct {
	key       []byte
	next      int64 // the next sequence number to reserve
	nextDirty bool  // next has not been committed yet
	core      map[int64]float64
	ix        map[int]*index // core records with a non-zero vector, by dimension
}

var _ store.Releaser = (*boltStore)(nil)

var (
	rootBucket  = []byte("dmem")
	unitsBucket = []byte("units")
	logBucket   = []byte("log")
	termsBucket = []byte("terms")
	metaBucket  = []byte("meta")
	stateKey    = []byte("state")
	nextKey     = []byte("next")
)

// fileName is the name of the bbolt file inside a store's directory.
const fileName = "dmem.bolt"

// lockWait is how long opening a store waits for another process to
// release its file.
const lockWait = 5 * time.Second

// openFiles are the store files open in this process, by absolute path:
// bbolt's lock is per process, so a second open here would wait on itself.
var openFiles = struct {
	sync.Mutex
	paths map[string]bool
}{paths: make(map[string]bool)}

// OpenStore opens or creates the embedded store in dir: a bbolt file with
// chromem-go as the index. It is what [WithPath] opens; open it yourself to
// share it between memories of several namespaces ([WithStore],
// [WithNamespace]) in one process. The file is locked: another process
// opening it waits up to five seconds, then fails with [ErrInUse], as does
// a second open of the same file in this process.
//
// The file is checked before use, read once from end to end: a damaged
// one (truncated, overwritten, its pages or dmem's layout broken) fails
// with [ErrCorrupt], naming the file and the damage, and [Salvage] copies
// what is intact into a new store. A damaged record costs that record: it is skipped, and logged.
// A file of zero bytes is damaged too: dmem never leaves one (it creates
// its file whole, under another name, and links it into place), so an
// empty file is one that lost its contents.
func OpenStore(dir string) (store.Store, error) {
	s, err := openStore(context.Background(), dir)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// openStore is [OpenStore], giving up waiting for the file's lock when ctx
// ends.
func openStore(ctx context.Context, dir string) (*boltStore, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("dmem: open store: %w", err)
	}
	path, err := filepath.Abs(filepath.Join(dir, fileName))
	if err != nil {
		return nil, fmt.Errorf("dmem: open store: %w", err)
	}
	openFiles.Lock()
	inUse := openFiles.paths[path]
	openFiles.paths[path] = true
	openFiles.Unlock()
	if inUse {
		return nil, fmt.Errorf("dmem: open store: %s is already open in this process: open it once with OpenStore and share it with WithStore (and WithNamespace): %w", path, ErrInUse)
	}
	db, err := openBoltFile(ctx, path)
	if err != nil {
		release(path)
		return nil, err
	}
	return &boltStore{db: db, path: path, spaces: make(map[engram.Namespace]*space), logger: slog.Default()}, nil
}

func release(path string) {
	openFiles.Lock()
	delete(openFiles.paths, path)
	openFiles.Unlock()
}

// openBoltFile creates the file at path if there is none, locks it, checks
// it and opens it with bbolt.
func openBoltFile(ctx context.Context, path string) (*bolt.DB, error) {
	if err := createFile(path); err != nil {
		return nil, fmt.Errorf("dmem: create store %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("dmem: open store: %w", err)
	}
	if err := lockFile(ctx, f, path); err != nil {
		f.Close()
		return nil, err
	}
	if err := checkFile(f, path); err != nil {
		unlock(f)
		f.Close()
		return nil, err
	}
	var db *bolt.DB
	err = guard(path, func() error {
		var err error
		db, err = bolt.Open(path, 0o600, &bolt.Options{
			Timeout: time.Second, FreelistType: bolt.FreelistMapType,
			// The file already checked and locked: bbolt locks it again.
			OpenFile: func(string, int, os.FileMode) (*os.File, error) { return f, nil },
		})
		return err
	})
	if err != nil {
		unlock(f)
		f.Close()
		if errors.Is(err, berrors.ErrInvalid) || errors.Is(err, berrors.ErrChecksum) || errors.Is(err, berrors.ErrVersionMismatch) {
			return nil, corrupt(path, err.Error())
		}
		return nil, fmt.Errorf("dmem: open store %s: %w", path, err)
	}
	if err := checkLayout(db, path); err != nil {
		unlock(f)
		db.Close()
		return nil, err
	}
	return db, nil
}

// createFile creates an empty store at path, if there is no file there:
// whole, under a temporary name, then linked into place, so that a crash
// leaves no partial file behind.
func createFile(path string) error {
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, fileName+".new-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	tmp.Close()
	defer os.Remove(name)
	db, err := bolt.Open(name, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return err
	}
	err = db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(rootBucket)
		return err
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	// A link fails if another process created the file meanwhile, where a
	// rename would replace the file it has open.
	if err := os.Link(name, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // the new name is durable
		d.Close()
	}
	return nil
}

// lockFile takes the file's lock, waiting up to lockWait for another
// process to release it, or until ctx ends.
func lockFile(ctx context.Context, f *os.File, path string) error {
	deadline := time.Now().Add(lockWait)
	for {
		ok, err := tryLock(f)
		if err != nil {
			return fmt.Errorf("dmem: open store: lock %s: %w", path, err)
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("dmem: open store: %s is in use by another process (one process per file; share one store between processes with dmem/pgstore): %w", path, ErrInUse)
		}
		t := time.NewTimer(50 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("dmem: open store: waiting for %s, in use by another process: %w", path, context.Cause(ctx))
		case <-t.C:
		}
	}
}

// corrupt returns the [ErrCorrupt] error for the file at path.
func corrupt(path, what string) error {
	return fmt.Errorf("dmem: %s is damaged: %s (dmem.Salvage copies what is intact): %w", path, what, ErrCorrupt)
}

// guard runs fn, which reads or writes the mapped file through bbolt,
// turning a panic or a memory fault into [ErrCorrupt]: bbolt trusts what it
// reads, and checkFile cannot rule out every damage that a file changed
// behind the process's back could hold.
func guard(path string, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = corrupt(path, fmt.Sprint("bbolt: ", r))
		}
	}()
	return fn()
}

// checkLayout checks dmem's layout in the file: the root bucket holds one
// bucket per namespace, under a namespace's key, with its four buckets.
// A file that bbolt opened but that holds no bucket at all gets the root.
func checkLayout(db *bolt.DB, path string) error {
	var problem string
	noRoot := false
	err := guard(path, func() error {
		return db.View(func(tx *bolt.Tx) error {
			root := tx.Bucket(rootBucket)
			if root == nil {
				if k, _ := tx.Cursor().First(); k != nil {
					problem = fmt.Sprintf("no %q bucket, but a bucket %q: not a dmem store", rootBucket, k)
				}
				noRoot = true
				return nil
			}
			return root.ForEach(func(k, v []byte) error {
				if problem != "" {
					return nil
				}
				ns, ok := parseNSKey(k)
				b := root.Bucket(k)
				switch {
				case !ok:
					problem = fmt.Sprintf("a namespace key %x that does not decode", k)
				case b == nil:
					problem = fmt.Sprintf("namespace %s is not a bucket", ns)
				default:
					for _, name := range [...][]byte{unitsBucket, logBucket, termsBucket, metaBucket} {
						if b.Bucket(name) == nil {
							problem = fmt.Sprintf("namespace %s lacks its %q bucket", ns, name)
							return nil
						}
					}
					if v := b.Bucket(metaBucket).Get(nextKey); v != nil && len(v) != 8 {
						problem = fmt.Sprintf("namespace %s: its next sequence number has %d bytes, not 8", ns, len(v))
					}
				}
				return nil
			})
		})
	})
	if err == nil && problem == "" && noRoot {
		err = guard(path, func() error {
			return db.Update(func(tx *bolt.Tx) error {
				_, err := tx.CreateBucket(rootBucket)
				return err
			})
		})
	}
	if err != nil {
		if errors.Is(err, ErrCorrupt) {
			return err
		}
		return fmt.Errorf("dmem: open store %s: %w", path, err)
	}
	if problem != "" {
		return corrupt(path, problem)
	}
	return nil
}

// String says what the store is, for [Stats].
func (s *boltStore) String() string { return "bbolt, chromem-go exact search" }

// nsKey encodes a namespace injectively.
func nsKey(ns engram.Namespace) []byte {
	var b []byte
	for _, f := range [...]string{ns.User, ns.Agent, ns.Session} {
		b = appendBytes(b, []byte(f))
	}
	return b
}

// parseNSKey decodes what nsKey wrote.
func parseNSKey(k []byte) (engram.Namespace, bool) {
	d := newDecoder(k)
	var f [3]string
	for i := range f {
		f[i] = string(d.bytes(d.Uvarint()))
	}
	ns := engram.Namespace{User: f[0], Agent: f[1], Session: f[2]}
	return ns, d.Err == nil && len(d.B) == 0 && ns.Valid()
}

func (s *boltStore) check(ctx context.Context) error {
	if s.closed {
		return fmt.Errorf("dmem: store: %w", engram.ErrClosed)
	}
	return ctx.Err()
}

// checkNS refuses a namespace whose key bbolt cannot hold: the three
// fields together may have about 32 KB (bolt.MaxKeySize, less a few
// bytes of lengths).
func checkNS(ns engram.Namespace) error {
	if n := len(nsKey(ns)); n > bolt.MaxKeySize {
		return fmt.Errorf("dmem: store: a namespace of %d bytes (user %d, agent %d, session %d), over bbolt's key limit of %d: %w",
			n, len(ns.User), len(ns.Agent), len(ns.Session), bolt.MaxKeySize, engram.ErrInvalidInput)
	}
	return nil
}

// spaceFor returns the loaded space of ns, loading it on first use. The
// caller holds commitMu.
func (s *boltStore) spaceFor(ns engram.Namespace) (*space, error) {
	s.mu.RLock()
	sp := s.spaces[ns]
	s.mu.RUnlock()
	if sp != nil {
		return sp, nil
	}
	sp = &space{key: nsKey(ns), core: make(map[int64]float64), ix: make(map[int]*index)}
	err := s.read(func(tx *bolt.Tx) error {
		b := bucket(tx.Bucket(rootBucket), sp.key)
		if b == nil {
			return nil
		}
		if mb := bucket(b, metaBucket); mb != nil {
			if v := mb.Get(nextKey); len(v) == 8 {
				sp.next = max(0, int64(binary.BigEndian.Uint64(v)))
			}
		}
		if lb := bucket(b, logBucket); lb != nil {
			if k, _ := lb.Cursor().Last(); len(k) == 8 {
				sp.next = max(sp.next, int64(binary.BigEndian.Uint64(k))+1)
			}
		}
		return forEach(bucket(b, unitsBucket), func(k, v []byte) error {
			r, err := decodeRecord(k, v)
			if err != nil {
				s.skip(ns, unitsBucket, k, err) // a damaged record costs that record
				return nil
			}
			sp.next = max(sp.next, r.Seq+1)
			if r.Route == store.RouteCore {
				sp.core[r.Seq] = r.LogP
				if !zero(r.Embedding) {
					if err := sp.index(len(r.Embedding)).add(context.Background(), seqID(r.Seq), r.Embedding); err != nil {
						return err
					}
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("dmem: store: load %s from %s: %w", ns, s.path, err)
	}
	s.mu.Lock()
	s.spaces[ns] = sp
	s.mu.Unlock()
	return sp, nil
}

// index returns the index of dimension dim, creating it.
func (sp *space) index(dim int) *index {
	ix := sp.ix[dim]
	if ix == nil {
		var err error
		if ix, err = newIndex(); err != nil {
			panic(err) // creating a collection in a fresh in-memory DB cannot fail
		}
		sp.ix[dim] = ix
	}
	return ix
}

func seqID(seq int64) string { return strconv.FormatInt(seq, 10) }

// coreChange is a staged change to a space's core set.
type coreChange struct {
	present bool
	logP    float64
	reindex bool      // the vector changed, or the record entered core
	vec     []float32 // to index, when present
}

// staged is what one commit changes in a space's memory, applied once the
// transaction has committed.
type staged struct {
	logger  *slog.Logger // the store's
	sp      *space
	cleared bool
	changes map[int64]coreChange
	n       int // core records after the commit
}

func (st *staged) get(seq int64) (float64, bool) {
	if c, ok := st.changes[seq]; ok {
		return c.logP, c.present
	}
	if st.cleared {
		return 0, false
	}
	p, ok := st.sp.core[seq]
	return p, ok
}

func (st *staged) set(seq int64, c coreChange) {
	_, was := st.get(seq)
	if prev, ok := st.changes[seq]; ok && prev.reindex && c.present && !c.reindex {
		c.reindex, c.vec = true, prev.vec // a priority change after a put in one commit
	}
	switch {
	case was && !c.present:
		st.n--
	case !was && c.present:
		st.n++
	}
	st.changes[seq] = c
}

func (s *boltStore) Commit(ctx context.Context, ns engram.Namespace, ops []store.Op) error {
	for _, op := range ops {
		if err := op.Check(); err != nil {
			return fmt.Errorf("dmem: store: commit: %w", err)
		}
	}
	if err := checkNS(ns); err != nil {
		return err
	}
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	if err := s.check(ctx); err != nil {
		return err
	}
	sp, err := s.spaceFor(ns)
	if err != nil {
		return err
	}
	st := &staged{logger: s.logger, sp: sp, changes: make(map[int64]coreChange), n: len(sp.core)}
	err = s.write(func(tx *bolt.Tx) error {
		b, err := spaceBucket(tx, sp.key)
		if err != nil {
			return err
		}
		for _, op := range ops {
			if b, err = applyBolt(tx, b, sp.key, st, op); err != nil {
				return err
			}
		}
		if sp.nextDirty || st.cleared {
			return b.Bucket(metaBucket).Put(nextKey, binary.BigEndian.AppendUint64(nil, uint64(sp.next)))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("dmem: store: commit to %s: %w", s.path, err)
	}
	sp.nextDirty = false
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.cleared {
		clear(sp.core)
		sp.ix = make(map[int]*index)
	}
	for seq, c := range st.changes {
		if !c.reindex && c.present {
			sp.core[seq] = c.logP // a priority change: the vector stays
			continue
		}
		for _, ix := range sp.ix {
			_ = ix.remove(context.Background(), seqID(seq)) // deleting by id cannot fail
		}
		if !c.present {
			delete(sp.core, seq)
			continue
		}
		sp.core[seq] = c.logP
		if !zero(c.vec) {
			_ = sp.index(len(c.vec)).add(context.Background(), seqID(seq), c.vec) // only fails on an empty id or vector
		}
	}
	return nil
}

// spaceBucket returns the namespace's bucket, creating it.
func spaceBucket(tx *bolt.Tx, key []byte) (*bolt.Bucket, error) {
	b, err := tx.Bucket(rootBucket).CreateBucketIfNotExists(key)
	if err != nil {
		return nil, err
	}
	for _, name := range [...][]byte{unitsBucket, logBucket, termsBucket, metaBucket} {
		if _, err := b.CreateBucketIfNotExists(name); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// applyBolt applies one op; it returns the namespace's bucket, which
// OpClear replaces.
func applyBolt(tx *bolt.Tx, b *bolt.Bucket, key []byte, st *staged, op store.Op) (*bolt.Bucket, error) {
	units, log := b.Bucket(unitsBucket), b.Bucket(logBucket)
	k := seqKey(op.Seq)
	switch op.Kind {
	case store.OpPut:
		r := op.Record
		k = seqKey(r.Seq)
		if old := units.Get(k); old != nil {
			if o, err := decodeRecord(k, old); err == nil {
				r.LogP = o.LogP
			}
		}
		if r.Route == store.RouteCore {
			st.set(r.Seq, coreChange{present: true, logP: r.LogP, reindex: true, vec: r.Embedding})
		} else {
			st.set(r.Seq, coreChange{})
		}
		return b, units.Put(k, encodeRecord(r))
	case store.OpDelete:
		st.set(op.Seq, coreChange{})
		return b, units.Delete(k)
	case store.OpLog:
		r := op.Record
		r.Embedding = nil
		return b, log.Put(seqKey(r.Seq), encodeRecord(r))
	case store.OpUnlog:
		return b, log.Delete(k)
	case store.OpPriority:
		v := units.Get(k)
		if v == nil {
			return b, nil
		}
		r, err := decodeRecord(k, v)
		if err != nil {
			return b, nil
		}
		r.LogP = store.NewLogP(r.LogP, op.At, op.Mul, op.Add, op.Min)
		if r.Route == store.RouteCore {
			st.set(r.Seq, coreChange{present: true, logP: r.LogP})
		}
		return b, units.Put(k, encodeRecord(r))
	case store.OpEvict:
		return b, evictBolt(units, log, st, op.Capacity)
	case store.OpTerm:
		if op.Term == "" {
			return b, nil // bbolt refuses empty keys; an empty term carries nothing
		}
		tb := b.Bucket(termsBucket)
		var n int64
		if v := tb.Get([]byte(op.Term)); v != nil {
			n, _ = binary.Varint(v)
		}
		return b, tb.Put([]byte(op.Term), binary.AppendVarint(nil, n+op.N))
	case store.OpState:
		return b, b.Bucket(metaBucket).Put(stateKey, op.State)
	case store.OpClear:
		if err := tx.Bucket(rootBucket).DeleteBucket(key); err != nil {
			return nil, err
		}
		st.cleared, st.changes, st.n = true, make(map[int64]coreChange), 0
		return spaceBucket(tx, key)
	}
	return b, fmt.Errorf("unknown op %d", op.Kind)
}

// evictBolt moves the lowest-priority core records to the log until at
// most capacity remain.
func evictBolt(units, log *bolt.Bucket, st *staged, capacity int) error {
	if st.n <= capacity {
		return nil
	}
	type entry struct {
		seq  int64
		logP float64
	}
	var es []entry
	seen := make(map[int64]bool)
	for seq, c := range st.changes {
		seen[seq] = true
		if c.present {
			es = append(es, entry{seq, c.logP})
		}
	}
	if !st.cleared {
		for seq, p := range st.sp.core {
			if !seen[seq] {
				es = append(es, entry{seq, p})
			}
		}
	}
	slices.SortFunc(es, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.logP, b.logP), cmp.Compare(a.seq, b.seq))
	})
	for _, e := range es[:max(0, len(es)-capacity)] {
		k := seqKey(e.seq)
		r, err := decodeRecord(k, units.Get(k))
		if err != nil {
			// A damaged record costs that record, never the memory: failing
			// the commit would fail every later one too.
			st.logger.Warn("dmem: store: dropping an undecodable record", "seq", e.seq, "err", err)
			if err := units.Delete(k); err != nil {
				return err
			}
			st.set(e.seq, coreChange{})
			continue
		}
		r.Route, r.Embedding = store.RouteNowhere, nil
		if err := log.Put(k, encodeRecord(r)); err != nil {
			return err
		}
		if err := units.Delete(k); err != nil {
			return err
		}
		st.set(e.seq, coreChange{})
	}
	return nil
}

func (s *boltStore) Reserve(ctx context.Context, ns engram.Namespace, n int) (int64, error) {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	if err := s.check(ctx); err != nil {
		return 0, err
	}
	if n <= 0 {
		return 0, fmt.Errorf("dmem: store: reserve %d: %w", n, engram.ErrInvalidInput)
	}
	if err := checkNS(ns); err != nil {
		return 0, err
	}
	sp, err := s.spaceFor(ns)
	if err != nil {
		return 0, err
	}
	// The next commit persists the counter: a number reserved and never
	// committed names no record, so reusing it after a crash is harmless.
	first := sp.next
	sp.next += int64(n)
	sp.nextDirty = true
	return first, nil
}

// Release implements [store.Releaser]. bbolt has one writer process, so
// a release after the last reservation makes numbering gap-free.
func (s *boltStore) Release(ctx context.Context, ns engram.Namespace, from, end int64) error {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	if err := s.check(ctx); err != nil {
		return err
	}
	if from < 0 || from > end {
		return fmt.Errorf("dmem: store: release [%d, %d): %w", from, end, engram.ErrInvalidInput)
	}
	if err := checkNS(ns); err != nil {
		return err
	}
	sp, err := s.spaceFor(ns)
	if err != nil {
		return err
	}
	if from == end || sp.next != end {
		return nil // reserved since: the numbers stay taken
	}
	err = s.write(func(tx *bolt.Tx) error {
		b, err := spaceBucket(tx, sp.key)
		if err != nil {
			return err
		}
		return b.Bucket(metaBucket).Put(nextKey, binary.BigEndian.AppendUint64(nil, uint64(from)))
	})
	if err != nil {
		return fmt.Errorf("dmem: store: release in %s: %w", s.path, err)
	}
	sp.next, sp.nextDirty = from, false
	return nil
}

// view runs fn in a read transaction on the bucket of ns; b is nil if the
// namespace holds nothing.
func (s *boltStore) view(ctx context.Context, ns engram.Namespace, fn func(b *bolt.Bucket) error) error {
	s.commitMu.Lock()
	err := s.check(ctx)
	s.commitMu.Unlock()
	if err != nil {
		return err
	}
	err = s.read(func(tx *bolt.Tx) error { return fn(bucket(tx.Bucket(rootBucket), nsKey(ns))) })
	if errors.Is(err, berrors.ErrDatabaseNotOpen) {
		// Close ran between the check and the transaction.
		return fmt.Errorf("dmem: store: %w", engram.ErrClosed)
	}
	return err
}

func (s *boltStore) Get(ctx context.Context, ns engram.Namespace, seq int64) (store.Record, error) {
	var r store.Record
	var found bool
	err := s.view(ctx, ns, func(b *bolt.Bucket) error {
		if b == nil {
			return nil
		}
		units := bucket(b, unitsBucket)
		if units == nil {
			return nil
		}
		k := seqKey(seq)
		v := units.Get(k)
		if v == nil {
			return nil
		}
		var err error
		if r, err = decodeRecord(k, v); err != nil {
			s.skip(ns, unitsBucket, k, err)
			return nil
		}
		found = true
		return nil
	})
	if err != nil {
		return store.Record{}, err
	}
	if !found {
		return store.Record{}, fmt.Errorf("dmem: store: record %d of %s: %w", seq, ns, engram.ErrNotFound)
	}
	return r, nil
}

func (s *boltStore) Scan(ctx context.Context, ns engram.Namespace, log bool, fn func(store.Record) error) error {
	var rs []store.Record
	err := s.view(ctx, ns, func(b *bolt.Bucket) error {
		if b == nil {
			return nil
		}
		name := unitsBucket
		if log {
			name = logBucket
		}
		return forEach(bucket(b, name), func(k, v []byte) error {
			if r, err := decodeRecord(k, v); err == nil {
				rs = append(rs, r)
			} else {
				s.skip(ns, name, k, err)
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	// fn runs outside the read transaction, so it may commit.
	for _, r := range rs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

func (s *boltStore) Query(ctx context.Context, ns engram.Namespace, vec []float32, n int) ([]store.Hit, error) {
	s.commitMu.Lock()
	err := s.check(ctx)
	var sp *space
	if err == nil {
		sp, err = s.spaceFor(ns)
	}
	s.commitMu.Unlock()
	if err != nil || n <= 0 || zero(vec) {
		return nil, err
	}
	q, err := normalised(vec)
	if err != nil {
		return nil, fmt.Errorf("dmem: store: query: %w", err)
	}
	s.mu.RLock()
	var hits []hit
	if ix := sp.ix[len(q)]; ix != nil {
		hits, err = ix.nearest(ctx, q, n)
	}
	s.mu.RUnlock()
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	out := make([]store.Hit, 0, len(hits))
	err = s.view(ctx, ns, func(b *bolt.Bucket) error {
		if b == nil {
			return nil
		}
		units := bucket(b, unitsBucket)
		if units == nil {
			return nil
		}
		for _, h := range hits {
			seq, _ := strconv.ParseInt(h.id, 10, 64)
			k := seqKey(seq)
			if v := units.Get(k); v != nil {
				if r, err := decodeRecord(k, v); err == nil && r.Route == store.RouteCore {
					out = append(out, store.Hit{Record: r, Similarity: h.sim})
				}
			}
		}
		return nil
	})
	return out, err
}

func (s *boltStore) Load(ctx context.Context, ns engram.Namespace) (store.Snapshot, error) {
	snap := store.Snapshot{Terms: make(map[string]int64)}
	err := s.view(ctx, ns, func(b *bolt.Bucket) error {
		if b == nil {
			return nil
		}
		if mb := bucket(b, metaBucket); mb != nil {
			if v := mb.Get(stateKey); v != nil {
				snap.State = append([]byte(nil), v...)
			}
		}
		return forEach(bucket(b, termsBucket), func(k, v []byte) error {
			n, w := binary.Varint(v)
			if w <= 0 || w != len(v) {
				s.skip(ns, termsBucket, k, errCorrupt)
				return nil
			}
			snap.Terms[string(k)] = n
			return nil
		})
	})
	return snap, err
}

func (s *boltStore) Close() error {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	var err error
	if s.syncEvery > 0 {
		err = guard(s.path, s.db.Sync) // what relaxed durability left unsynced
	}
	err = errors.Join(err, s.db.Close())
	release(s.path)
	if err != nil {
		return fmt.Errorf("dmem: store: close %s: %w", s.path, err)
	}
	return nil
}

// read runs fn in a read transaction, guarded (see guard).
func (s *boltStore) read(fn func(*bolt.Tx) error) error {
	return guard(s.path, func() error { return s.db.View(fn) })
}

// write runs fn in a write transaction, guarded (see guard).
// With relaxed durability (WithSyncEvery) it writes without an fsync and
// syncs once the interval has passed since the last. s.commitMu is held.
func (s *boltStore) write(fn func(*bolt.Tx) error) error {
	if err := guard(s.path, func() error { return s.db.Update(fn) }); err != nil {
		return err
	}
	if s.syncEvery == 0 || time.Since(s.synced) < s.syncEvery {
		return nil
	}
	if err := guard(s.path, s.db.Sync); err != nil {
		return err
	}
	s.synced = time.Now()
	return nil
}

// relax makes the store write without an fsync per commit, syncing at most
// once per every (and at Close): see WithSyncEvery.
func (s *boltStore) relax(every time.Duration) {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	s.db.NoSync = every > 0
	s.syncEvery, s.synced = every, time.Now()
}

// skip logs, once per record, a record that does not decode: it costs that
// record, never the memory.
func (s *boltStore) skip(ns engram.Namespace, bucket, k []byte, err error) {
	id := string(nsKey(ns)) + "\x00" + string(bucket) + "\x00" + string(k)
	s.skipMu.Lock()
	if s.skipped == nil {
		s.skipped = make(map[string]bool)
	}
	seen := s.skipped[id]
	s.skipped[id] = true
	s.skipMu.Unlock()
	if !seen {
		s.logger.Warn("dmem: store: skipping a damaged record", "file", s.path, "namespace", ns.String(), "bucket", string(bucket), "key", fmt.Sprintf("%x", k), "err", err)
	}
}

// bucket returns the bucket name of b, nil if b is nil or lacks it.
func bucket(b *bolt.Bucket, name []byte) *bolt.Bucket {
	if b == nil {
		return nil
	}
	return b.Bucket(name)
}

// forEach is b.ForEach, doing nothing if b is nil.
func forEach(b *bolt.Bucket, fn func(k, v []byte) error) error {
	if b == nil {
		return nil
	}
	return b.ForEach(fn)
}

const recordVersion = 1

// encodeRecord returns the binary form of r, less its Seq (the key).
func encodeRecord(r store.Record) []byte {
	b := make([]byte, 0, 2+5*8+binary.MaxVarintLen64+4*len(r.Embedding)+len(r.Data))
	b = append(b, recordVersion, byte(r.Route))
	for _, f := range [...]float64{r.LogP, r.Delta, r.Gate, r.Novelty, r.Reward} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	b = binary.AppendUvarint(b, uint64(len(r.Embedding)))
	for _, x := range r.Embedding {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return append(b, r.Data...)
}

// decodeRecord parses what encodeRecord wrote under key k; the result
// shares no memory with v. A statistic that is not finite is repaired to
// 0 (see repair); a vector that is not, or a size past its bound, makes
// the record damaged.
func decodeRecord(k, v []byte) (store.Record, error) {
	if len(k) != 8 || len(v) < 2 || v[0] != recordVersion {
		return store.Record{}, errCorrupt
	}
	d := newDecoder(v[2:])
	r := store.Record{Seq: int64(binary.BigEndian.Uint64(k)), Route: store.Route(v[1])}
	r.LogP, r.Delta, r.Gate, r.Novelty, r.Reward = repair(d.float(), 0), repair(d.float(), 0), repair(d.float(), 0), repair(d.float(), 0), repair(d.float(), 0)
	if n := d.Uvarint(); n > 0 && n <= maxDim && n <= uint64(len(d.B))/4 {
		r.Embedding = make([]float32, n)
		for i := range r.Embedding {
			r.Embedding[i] = math.Float32frombits(d.Uint32())
			if !finite(float64(r.Embedding[i])) {
				d.Fail("damaged")
			}
		}
	} else if n > 0 {
		d.Fail("damaged")
	}
	if d.Err != nil || r.Seq < 0 || r.Route > store.RouteMerged {
		return store.Record{}, errCorrupt
	}
	if len(d.B) > 0 {
		r.Data = append([]byte(nil), d.B...)
	}
	return r, nil
}

func seqKey(seq int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(seq)) }
