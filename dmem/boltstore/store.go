package boltstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/store"
	bolt "go.etcd.io/bbolt"
)

// Store is the embedded [store.Store]: one bbolt file, which is ACID, so a
// crash at any point leaves it at the last commit, and per namespace a
// chromem index of the core records, built when the namespace is first
// used. bbolt locks its file, so one process at a time uses it. A Store is
// safe for concurrent use.
type Store struct {
	db     *bolt.DB
	path   string       // absolute, for errors
	logger *slog.Logger // where damaged records are logged (WithLogger)

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
}

var (
	_ store.Store    = (*Store)(nil)
	_ store.Releaser = (*Store)(nil)
)

// FileName is the name of the bbolt file inside a store's directory.
const FileName = "dmem.bolt"

// lockWait is how long opening a store waits for another process to
// release its file.
const lockWait = 5 * time.Second

// openFiles are the store files open in this process, by absolute path:
// bbolt's lock is per process, so a second open here would wait on itself.
var openFiles = struct {
	sync.Mutex
	paths map[string]bool
}{paths: make(map[string]bool)}

// Open opens or creates the store in dir, the file [FileName] in it. It is
// what dmem.WithPath opens; open it yourself to share it between memories
// of several namespaces (dmem.WithStore, dmem.WithNamespace) in one
// process. The file is locked: another process opening it waits up to five
// seconds, or until ctx ends, then fails with [ErrInUse], as does a second
// open of the same file in this process.
//
// The file is checked before use, read once from end to end: a damaged
// one (truncated, overwritten, its pages or the layout broken) fails with
// a [*CorruptError], which is [ErrCorrupt], naming the file and the
// damage, and [Salvage] copies what is intact into a new store. A damaged
// record costs that record: it is skipped, and logged. A file of zero
// bytes is damaged too: the store never leaves one (it creates its file
// whole, under another name, and links it into place), so an empty file
// is one that lost its contents. Invalid options fail with an error
// wrapping engram.ErrInvalidOption.
func Open(ctx context.Context, dir string, opts ...Option) (*Store, error) {
	if err := nilContext(ctx); err != nil {
		return nil, err
	}
	o := options{logger: slog.Default()}
	for i, opt := range opts {
		if opt == nil {
			return nil, fmt.Errorf("boltstore: option %d of %d is nil: %w", i+1, len(opts), engram.ErrInvalidOption)
		}
		opt(&o)
	}
	if err := o.validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("boltstore: open: %w", err)
	}
	path, err := realPath(dir)
	if err != nil {
		return nil, fmt.Errorf("boltstore: open: %w", err)
	}
	openFiles.Lock()
	inUse := openFiles.paths[path]
	openFiles.paths[path] = true
	openFiles.Unlock()
	if inUse {
		return nil, fmt.Errorf("boltstore: open: %s is already open in this process: open it once with boltstore.Open and share it with dmem.WithStore (and dmem.WithNamespace): %w", path, ErrInUse)
	}
	db, err := openFile(ctx, path)
	if err != nil {
		release(path)
		return nil, err
	}
	// Relaxed durability: commits are written without an fsync, and write
	// syncs once the interval has passed.
	db.NoSync = o.syncEvery > 0
	return &Store{db: db, path: path, logger: o.logger, syncEvery: o.syncEvery, synced: time.Now(),
		spaces: make(map[engram.Namespace]*space)}, nil
}

func release(path string) {
	openFiles.Lock()
	delete(openFiles.paths, path)
	openFiles.Unlock()
}

// String says what the store is, for dmem's Stats.
func (s *Store) String() string { return "bbolt, chromem-go exact search" }

// Path returns the absolute path of the store's file.
func (s *Store) Path() string { return s.path }

func (s *Store) check(ctx context.Context) error {
	if err := nilContext(ctx); err != nil {
		return err
	}
	if s.closed {
		return fmt.Errorf("boltstore: %w", engram.ErrClosed)
	}
	return ctx.Err()
}

// realPath returns the absolute path of the store file in dir, its links
// resolved: the one name this process knows an open file by, however it
// was reached.
func realPath(dir string) (string, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	return filepath.Abs(filepath.Join(real, FileName))
}

// nilContext refuses a nil context with an error, as a bad argument, not a
// panic: a caller that recovers would find the store locked.
func nilContext(ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("boltstore: nil context (use context.Background()): %w", engram.ErrInvalidInput)
	}
	return nil
}

// Close syncs what relaxed durability left unsynced, closes the file and
// releases its lock. Closing twice does nothing.
func (s *Store) Close() error {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	var err error
	if s.syncEvery > 0 {
		err = guard(s.path, s.db.Sync)
	}
	err = errors.Join(err, s.db.Close())
	release(s.path)
	if err != nil {
		return fmt.Errorf("boltstore: close %s: %w", s.path, err)
	}
	return nil
}

// read runs fn in a read transaction, guarded (see guard).
func (s *Store) read(fn func(*bolt.Tx) error) error {
	return guard(s.path, func() error { return s.db.View(fn) })
}

// write runs fn in a write transaction, guarded (see guard).
// With relaxed durability (WithSyncEvery) it writes without an fsync and
// syncs once the interval has passed since the last. s.commitMu is held.
func (s *Store) write(fn func(*bolt.Tx) error) error {
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

// skip logs, once per record, a record that does not decode: it costs that
// record, never the memory.
func (s *Store) skip(ns engram.Namespace, bucket, k []byte, err error) {
	id := string(nsKey(ns)) + "\x00" + string(bucket) + "\x00" + string(k)
	s.skipMu.Lock()
	if s.skipped == nil {
		s.skipped = make(map[string]bool)
	}
	seen := s.skipped[id]
	s.skipped[id] = true
	s.skipMu.Unlock()
	if !seen {
		s.logger.Warn("boltstore: skipping a damaged record", "file", s.path, "namespace", ns.String(), "bucket", string(bucket), "key", fmt.Sprintf("%x", k), "err", err)
	}
}
