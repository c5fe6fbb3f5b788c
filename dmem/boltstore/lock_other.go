//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package boltstore

import "os"

// tryLock does nothing here: bbolt's own lock, taken when it opens the
// file, keeps a second process out.
func tryLock(*os.File) (bool, error) { return true, nil }

// unlock does nothing here (see tryLock).
func unlock(*os.File) {}
