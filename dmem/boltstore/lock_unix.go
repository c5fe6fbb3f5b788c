//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package boltstore

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes the exclusive lock bbolt takes on f, without waiting; it
// reports false if another process holds it. bbolt then locks the same
// open file again, which succeeds at once.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// unlock releases the lock on f's open file however many references to it
// remain: a mapping bbolt made before it failed on a damaged file would
// otherwise hold the lock until the process ends.
func unlock(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
