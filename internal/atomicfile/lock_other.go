//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package atomicfile

import (
	"os"
	"time"
)

// closeFirst is true: some systems neither rename nor remove an open file.
const closeFirst = true

// staleAge is how long a temporary file must be untouched to count as a
// leftover where no lock tells a running Write's from a dead one's.
const staleAge = time.Hour

// lock does nothing: there is no flock here.
func lock(*os.File) error { return nil }

// leftover reports whether f has been untouched for staleAge.
func leftover(f *os.File) (bool, error) {
	fi, err := f.Stat()
	if err != nil {
		return false, err
	}
	return time.Since(fi.ModTime()) > staleAge, nil
}
