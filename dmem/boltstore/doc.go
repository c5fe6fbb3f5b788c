// Package boltstore is the embedded [store.Store]: a durable dmem memory's
// record in one bbolt file in a directory, what dmem.WithPath opens, with
// chromem-go as its in-memory search index.
//
//	dir/dmem.bolt ─ root bucket "dmem" ─┬─ namespace (user, agent, session)
//	                                    │    ├─ units  records by Seq ─► chromem index (core, per dimension)
//	                                    │    ├─ log    the eviction log
//	                                    │    ├─ terms  term counts
//	                                    │    └─ meta   learned state, next Seq
//	                                    └─ namespace …
//
// A commit is one bbolt transaction, synced before Commit returns (or
// every interval, [WithSyncEvery]), so a crash at any point leaves the
// file at its last commit. The index is never persisted: each namespace's
// is built from its core records when the namespace is first used. bbolt
// locks the file, so one process at a time opens it ([ErrInUse]); to share
// a memory between processes, use dmem/pgstore. Open reads the whole file
// once before bbolt maps it, so a damaged file fails with [ErrCorrupt]
// instead of crashing the process; each record carries a CRC-32C of its
// bytes, and a damaged record costs that record, skipped and logged
// ([WithLogger]), never read as other data. [Salvage] copies what a damaged file
// still holds into a new store, reading it page by page. A Store is safe
// for concurrent use; Open starts no goroutine.
package boltstore
