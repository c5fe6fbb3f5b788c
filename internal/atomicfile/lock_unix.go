//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// closeFirst is false: a file renamed or removed while open keeps its
// lock until then.
const closeFirst = false

// lock takes an exclusive lock on f, which its process holds until it
// closes f or dies; it waits while a Clean holds it, a moment.
func lock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
}

// leftover reports whether f is a temporary file no running Write holds:
// its lock is free. It takes the lock, which closing f releases.
func leftover(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
