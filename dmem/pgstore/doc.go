// Package pgstore is a [store.Store] in PostgreSQL, for dmem.WithStore, through pgx v5: one
// durable memory that many agent replicas share, each user's, agent's or
// session's units walled off in its own namespace.
//
//	process A ─┐                        dmem_namespaces  (id, user, agent, session, next_seq, state)
//	process B ─┼─ dmem.Memory ─ Store ─► dmem_units       (ns, seq, route, log_p, δ stats, embedding, data)
//	process C ─┘  (per namespace)        dmem_log         (ns, seq, …)  the eviction log
//	                                     dmem_terms       (ns, term, n)
//
// [Open] applies the embedded, versioned migrations it lacks, recorded in
// dmem_schema_migrations, under an advisory lock so processes starting
// together do not race. It then detects pgvector: where the server offers
// the extension, units also get a vector column, each dimension a partial
// HNSW index, and search uses the cosine distance <=>; elsewhere search is
// an exact scan of the namespace's embeddings, scored in Go. Embeddings are
// kept as bytea, big-endian float32s (float4send's form), which the scan
// only copies. String (and so dmem.Stats.Store) says which. PostgreSQL
// prefers the HNSW index for a large tenant only when its statistics know
// the tenant is large: autovacuum keeps them current; after a bulk load,
// run ANALYZE dmem_units.
//
// Every statement names its namespace in the WHERE clause or the key. A
// commit is one transaction that first locks its namespace's row, so
// commits to one namespace apply one after another in any number of
// processes; priority changes, term counts and evictions are computed by
// the database from what it holds, and sequence numbers come from one
// atomic counter per namespace, so no update is lost and no unit
// duplicated. A namespace may hold [MaxNamespaceBytes] in all (the key of
// a btree index); a longer one fails with [ErrNamespaceTooLong]. A Store
// is safe for concurrent use; Open starts no goroutine
// of its own beyond the pgx pool's.
package pgstore
