// Package atomicfile replaces a file whole, so that a crash leaves the old
// file or the new one, never half of one, and removes what a crash leaves
// behind.
//
// [Write] writes a temporary file beside the target, named as
// os.CreateTemp names it (the target's name, ".tmp", digits), syncs it and
// renames it over the target. A process killed meanwhile leaves that
// temporary file. The next Write or [Clean] of the same path removes such
// leftovers: on Unix, each Write holds an exclusive flock on its temporary
// file until the rename, and the kernel drops the lock of a process that
// dies, so a temporary file nobody holds locked is a leftover, whatever
// its age, while one a running Write (of this process or another) holds is
// left alone. Elsewhere, without the lock, only temporary files untouched
// for an hour count as leftovers. Only files named as Write names them
// are ever removed.
package atomicfile
