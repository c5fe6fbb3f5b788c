package pgstore

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/store"
	"github.com/jackc/pgx/v5"
)

// Query returns the namespace's core records nearest to vec by cosine:
// with pgvector, by its HNSW index; otherwise by an exact scan that streams
// the namespace's core embeddings (the WHERE clause names the namespace)
// and scores them in Go, then fetches the best n records.
func (s *Store) Query(ctx context.Context, ns engram.Namespace, vec []float32, n int) ([]store.Hit, error) {
	for _, x := range vec {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("pgstore: query: vector component %v: %w", x, engram.ErrInvalidInput)
		}
	}
	id, err := s.id(ctx, ns)
	if err != nil || n <= 0 || zero(vec) {
		return nil, err
	}
	var hits []store.Hit
	if s.vector {
		hits, err = s.queryVector(ctx, id, vec, n)
	} else {
		hits, err = s.queryExact(ctx, id, vec, n)
	}
	if err != nil {
		return nil, s.fail("query "+ns.String(), err)
	}
	return hits, nil
}

type scored struct {
	seq int64
	sim float64
}

func (s *Store) queryExact(ctx context.Context, id int64, vec []float32, n int) ([]store.Hit, error) {
	qn := norm(vec)
	rows, err := s.pool.Query(ctx, `SELECT seq, embedding FROM dmem_units
		WHERE ns = $1 AND route = $2 AND length(embedding) = $3`, id, int16(store.RouteCore), 4*len(vec))
	if err != nil {
		return nil, err
	}
	var best []scored // the n best so far, a min-heap by (sim, -seq)
	var seq int64
	var raw []byte
	_, err = pgx.ForEachRow(rows, []any{&seq, &raw}, func() error {
		d, en, ok := dotRaw(vec, raw)
		if !ok || en == 0 {
			return nil
		}
		c := scored{seq, d / (qn * en)}
		if math.IsNaN(c.sim) || math.IsInf(c.sim, 0) {
			return nil // Commit refuses such vectors; an older row may hold one
		}
		switch {
		case len(best) < n:
			best = append(best, c)
			up(best, len(best)-1)
		case worse(best[0], c):
			best[0] = c
			down(best, 0)
		}
		return nil
	})
	if err != nil || len(best) == 0 {
		return nil, err
	}
	slices.SortFunc(best, func(a, b scored) int { return cmp.Or(cmp.Compare(b.sim, a.sim), cmp.Compare(a.seq, b.seq)) })
	want := make([]int64, len(best))
	for i, b := range best {
		want[i] = b.seq
	}
	rows, err = s.pool.Query(ctx, "SELECT "+unitColumns+" FROM dmem_units WHERE ns = $1 AND route = $2 AND seq = ANY($3)",
		id, int16(store.RouteCore), want)
	if err != nil {
		return nil, err
	}
	rs, err := collect(rows, scanRecord)
	if err != nil {
		return nil, err
	}
	bySeq := make(map[int64]store.Record, len(rs))
	for _, r := range rs {
		bySeq[r.Seq] = r
	}
	hits := make([]store.Hit, 0, len(best))
	for _, b := range best {
		if r, ok := bySeq[b.seq]; ok { // gone since the scan: left out
			hits = append(hits, store.Hit{Record: r, Similarity: b.sim})
		}
	}
	return hits, nil
}

// worse reports whether a ranks below b: lower similarity, or equal and newer.
func worse(a, b scored) bool { return a.sim < b.sim || (a.sim == b.sim && a.seq > b.seq) }

func up(h []scored, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !worse(h[i], h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func down(h []scored, i int) {
	for {
		l, m := 2*i+1, i
		if l < len(h) && worse(h[l], h[m]) {
			m = l
		}
		if r := l + 1; r < len(h) && worse(h[r], h[m]) {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// dotRaw returns q·e and |e| for e in the stored form of an embedding
// (see encodeVec).
func dotRaw(q []float32, raw []byte) (d, n float64, ok bool) {
	if len(raw) != 4*len(q) {
		return 0, 0, false
	}
	for i, x := range q {
		e := float64(math.Float32frombits(binary.BigEndian.Uint32(raw[4*i:])))
		d += float64(x) * e
		n += e * e
	}
	return d, math.Sqrt(n), true
}

// encodeVec returns an embedding's stored form: each element a big-endian
// float32, as PostgreSQL's float4send writes it.
func encodeVec(v []float32) []byte {
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		b = binary.BigEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// errUndecodable marks a stored value that does not decode.
var errUndecodable = errors.New("pgstore: undecodable record")

// decodeVec parses what encodeVec wrote; nil for none.
func decodeVec(b []byte) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("%w: stored embedding of %d bytes, not a multiple of 4", errUndecodable, len(b))
	}
	if len(b) == 0 {
		return nil, nil
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.BigEndian.Uint32(b[4*i:]))
		if math.IsNaN(float64(v[i])) || math.IsInf(float64(v[i]), 0) {
			return nil, fmt.Errorf("%w: stored embedding component %d is %v", errUndecodable, i, v[i])
		}
	}
	return v, nil
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func norm(v []float32) float64 { return math.Sqrt(dot(v, v)) }

// queryVector searches with pgvector's cosine distance <=> over the HNSW
// index of vec's dimension. The namespace filter applies inside the index
// scan where pgvector supports iterative scans (0.8 and later); before
// that, a namespace among many can get fewer than n results.
func (s *Store) queryVector(ctx context.Context, id int64, vec []float32, n int) ([]store.Hit, error) {
	d := len(vec)
	var hits []store.Hit
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// Unknown to pgvector before 0.8: a savepoint keeps the error local.
		if sp, err := tx.Begin(ctx); err == nil {
			if _, err := sp.Exec(ctx, "SET LOCAL hnsw.iterative_scan = relaxed_order"); err != nil {
				sp.Rollback(ctx)
			} else {
				sp.Commit(ctx)
			}
		}
		// A generic plan cannot see how many units the namespace holds, so
		// after a few runs of the prepared statement PostgreSQL settles on
		// sorting the namespace by distance, which reads every vector: 600
		// ms where the HNSW index takes 7 at 10k units. A plan made for
		// each query's values uses the index for a large namespace and the
		// exact sort for a small one.
		if _, err := tx.Exec(ctx, "SET LOCAL plan_cache_mode = force_custom_plan"); err != nil {
			return err
		}
		// relaxed_order lets the index return rows slightly out of
		// order; the outer ORDER BY puts the n found best first again.
		rows, err := tx.Query(ctx, fmt.Sprintf(`WITH found AS MATERIALIZED (
			SELECT `+unitColumns+`, 1 - (vec::vector(%d) <=> $2::vector(%d)) AS sim
			FROM dmem_units WHERE ns = $1 AND route = $3 AND vec IS NOT NULL AND vector_dims(vec) = %d
			ORDER BY vec::vector(%d) <=> $2::vector(%d) LIMIT $4)
			SELECT * FROM found ORDER BY sim DESC, seq`, d, d, d, d, d),
			id, vectorText(vec), int16(store.RouteCore), n)
		if err != nil {
			return err
		}
		hits, err = collect(rows, func(row pgx.Row) (store.Hit, error) {
			var h store.Hit
			var route int16
			var emb []byte
			if err := row.Scan(&h.Seq, &route, &h.LogP, &h.Delta, &h.Gate, &h.Novelty, &h.Reward, &emb, &h.Data, &h.Similarity); err != nil {
				return h, err
			}
			h.Route = store.Route(route)
			var err error
			h.Embedding, err = decodeVec(emb)
			if err == nil {
				err = checkRecord(&h.Record)
			}
			return h, err
		})
		return err
	})
	return hits, err
}
