// Package store is what a durable D-MEM memory (package dmem) asks of the place
// that keeps its record, for those who write such a place or test one.
// Users of dmem need none of it beyond the name [Store]: dmem.WithPath opens
// the embedded bbolt store (dmem/boltstore, to open and share one), dmem/pgstore keeps
// the record in PostgreSQL, and dmem.WithStore takes either.
//
//	dmem.Memory ──Commit(ns, []Op)──► Store ──► units, eviction log, term counts, state, sequence
//	            ◄──Get, Scan, Query, Load─┘      (per Namespace)
//
// A [Store] keeps, per namespace, [Record]s: a unit's columns (route,
// priority, surprise statistics, embedding) and Data, the rest of the unit
// in dmem's encoding, which a store keeps as it is. A memory changes what
// a store holds only by commits of [Op]s, all or none: puts, deletes, the
// eviction log, priority changes a store applies atomically ([NewLogP]),
// eviction down to a capacity, term increments, the learned state, a
// clear. So many memories, in many processes, may write one namespace and
// lose nothing. dmem/storetest is the conformance suite every store runs.
package store
