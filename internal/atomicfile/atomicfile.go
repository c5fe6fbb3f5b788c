package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// ErrIsDir is the error, wrapped, of a Write to a path that is a directory.
var ErrIsDir = errors.New("is a directory")

// Write replaces the file at path with what write writes, atomically: a
// temporary file beside it, readable and writable by its owner only
// (0600), locked while it is written, synced, then renamed over path. It
// first removes the leftovers of earlier Writes of path ([Clean]). A path
// that names a directory is refused before anything is written.
func Write(path string, write func(io.Writer) error) (err error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory, not a file: %w", path, ErrIsDir)
	}
	Clean(path)
	dir, base := split(path)
	f, err := create(dir, base)
	if err != nil {
		return err
	}
	closed := false
	defer func() {
		if err != nil {
			if !closed {
				f.Close()
			}
			os.Remove(f.Name())
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if closeFirst {
		if err := f.Close(); err != nil {
			return err
		}
		closed = true
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	if !closed {
		// The lock goes with the close, after the rename: until then the
		// temporary file is this Write's.
		if err := f.Close(); err != nil {
			return err
		}
	}
	// The rename is durable once the directory is; some systems cannot
	// sync one, and the file itself is whole either way.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// create makes and locks a temporary file for base in dir. A Clean that
// took the lock first may have removed it: then it makes another. Each
// concurrent Write cleans before it writes, so with eight writers at once
// three tries were sometimes all lost; a try costs a file's creation.
func create(dir, base string) (*os.File, error) {
	for range 64 {
		f, err := os.CreateTemp(dir, base+".tmp*")
		if err != nil {
			return nil, err
		}
		if err := lock(f); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, err
		}
		if same(f, f.Name()) {
			return f, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("create a temporary file beside %s: removed as it was made", filepath.Join(dir, base))
}

// Clean removes the temporary files earlier Writes of path left behind
// when their process died: those named as Write names them that no
// running Write holds (see the package doc). Failures are ignored: a
// leftover that stays is removed by a later Clean.
func Clean(path string) {
	dir, base := split(path)
	es, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range es {
		if !e.Type().IsRegular() || !IsTemp(base, e.Name()) {
			continue
		}
		name := filepath.Join(dir, e.Name())
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		ok, _ := leftover(f)
		ok = ok && same(f, name)
		if closeFirst {
			f.Close()
		}
		if ok {
			// Removed under the lock: a Write that made the file and
			// waits for its lock then finds it gone, and makes another.
			os.Remove(name)
		}
		if !closeFirst {
			f.Close()
		}
	}
}

// IsTemp reports whether name is a temporary file Write makes for a file
// named base: base, ".tmp", then digits alone.
func IsTemp(base, name string) bool {
	digits, ok := strings.CutPrefix(name, base+".tmp")
	if !ok || digits == "" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// same reports whether f is still the file at name.
func same(f *os.File, name string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(name)
	return err == nil && os.SameFile(a, b)
}

// split returns path's directory ("." for none) and base name.
func split(path string) (string, string) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	return dir, base
}
