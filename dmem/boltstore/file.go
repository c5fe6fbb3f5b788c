package boltstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// openFile creates the file at path if there is none, locks it, checks
// it and opens it with bbolt.
func openFile(ctx context.Context, path string) (*bolt.DB, error) {
	if err := createFile(path); err != nil {
		return nil, fmt.Errorf("boltstore: create %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("boltstore: open: %w", err)
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
		return nil, fmt.Errorf("boltstore: open %s: %w", path, err)
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
	tmp, err := os.CreateTemp(dir, FileName+".new-*")
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
			return fmt.Errorf("boltstore: open: lock %s: %w", path, err)
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("boltstore: open: %s is in use by another process (one process per file; share one store between processes with dmem/pgstore): %w", path, ErrInUse)
		}
		t := time.NewTimer(50 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("boltstore: open: %s is in use by another process, and the wait ended: %w (%w)", path, ErrInUse, context.Cause(ctx))
		case <-t.C:
		}
	}
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
		return fmt.Errorf("boltstore: open %s: %w", path, err)
	}
	if problem != "" {
		return corrupt(path, problem)
	}
	return nil
}
