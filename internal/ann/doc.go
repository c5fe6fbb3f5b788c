// Package ann is an approximate nearest-neighbour index by inner product
// for unit vectors: an inverted file (IVF) of int8 codes, re-ranked exactly.
//
//	Add(id, v) ──nearest centroid──▶ list c: ids │ scales │ int8 codes
//	Search(q)  ──64 nearest centroids──▶ scan their lists' codes (AVX2)
//	           ──best k+16 by int8 score──▶ exact dot with the caller's
//	             float32 vectors ([Vectors]) ──▶ k ids, best first
//
// Below 4,096 vectors there is one list and Search scores every vector,
// exactly. At 4,096, and again each time the index has doubled since, Add
// retrains: spherical k-means (seeded; the same Adds in the same order give
// the same index) finds √n centroids on a sample of 32 vectors per list,
// and every vector moves to its nearest new centroid. Removals that take
// the index below 2,048 vectors return it to one list.
//
// The index keeps 8 bytes and an int8 copy of each vector: 144 bytes a
// 100-dimensional vector at 1,000,000, lists and id map included, against
// the 400 of the float32 vector the caller already holds and lends to
// Search for the re-rank. Ids are the caller's row numbers; after the
// caller compacts its rows, [Index.Renumber] moves the ids along.
//
// Search is safe for concurrent use with other Searches; Add, Remove and
// Renumber are not safe for concurrent use with any other method, so an
// owner that searches from several goroutines holds a read–write lock.
package ann
