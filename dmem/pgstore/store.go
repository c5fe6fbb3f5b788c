package pgstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/store"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store is a [store.Store] in PostgreSQL, safe for concurrent use by any
// number of goroutines and processes.
type Store struct {
	pool   *pgxpool.Pool
	vector bool // pgvector in use; otherwise the exact scan
	// vecCol: the vector column exists, because some process enabled
	// pgvector. Every store writes it then, whatever it searches with, so
	// that processes in either mode see each other's units.
	vecCol bool
	closed atomic.Bool

	mu      sync.Mutex // guards ids and indexed
	ids     map[engram.Namespace]int64
	indexed map[int]bool // dimensions with an HNSW index
}

var (
	_ store.Store    = (*Store)(nil)
	_ store.Releaser = (*Store)(nil)
)

// Open connects to the database dsn names (a URL or key=value string, with
// pgxpool's pool_max_conns and the like), applies the schema migrations it
// lacks, and detects pgvector. The store owns the connection pool.
func Open(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("pgstore: open: %w: %w", engram.ErrInvalidOption, err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgstore: open: %w", err)
	}
	vector, err := migrate(ctx, pool, !o.exact)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("pgstore: open: %w", err)
	}
	vecCol := vector
	if !vecCol {
		err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = 'dmem_units' AND column_name = 'vec')`).Scan(&vecCol)
		if err != nil {
			pool.Close()
			return nil, fmt.Errorf("pgstore: open: %w", err)
		}
	}
	return &Store{pool: pool, vector: vector, vecCol: vecCol, ids: make(map[engram.Namespace]int64), indexed: make(map[int]bool)}, nil
}

// String says how the store searches, for dmem.Stats.
func (s *Store) String() string {
	if s.vector {
		return "postgres, pgvector HNSW (cosine)"
	}
	return "postgres, exact scan over bytea embeddings"
}

// Close closes the pool. It may be called more than once.
func (s *Store) Close() error {
	if s.closed.CompareAndSwap(false, true) {
		s.pool.Close()
	}
	return nil
}

func (s *Store) check(ctx context.Context) error {
	if s.closed.Load() {
		return fmt.Errorf("pgstore: %w", engram.ErrClosed)
	}
	return ctx.Err()
}

// fail wraps err, an error of the database, for op; if the store was
// closed meanwhile it is [engram.ErrClosed]: a call that passed check just
// before Close finds the pool closed.
func (s *Store) fail(op string, err error) error {
	if s.closed.Load() {
		return fmt.Errorf("pgstore: %s: %w (%v)", op, engram.ErrClosed, err)
	}
	return fmt.Errorf("pgstore: %s: %w", op, err)
}

// id returns the namespace's row id, creating the row.
func (s *Store) id(ctx context.Context, ns engram.Namespace) (int64, error) {
	if err := s.check(ctx); err != nil {
		return 0, err
	}
	if !ns.Valid() {
		return 0, fmt.Errorf("pgstore: namespace %s is not UTF-8 without NUL: %w", ns, engram.ErrInvalidInput)
	}
	if n := len(ns.User) + len(ns.Agent) + len(ns.Session); n > MaxNamespaceBytes {
		return 0, fmt.Errorf("%w: %d bytes (user %d, agent %d, session %d), over the %d PostgreSQL's index holds: %w",
			ErrNamespaceTooLong, n, len(ns.User), len(ns.Agent), len(ns.Session), MaxNamespaceBytes, engram.ErrInvalidInput)
	}
	s.mu.Lock()
	id, ok := s.ids[ns]
	s.mu.Unlock()
	if ok {
		return id, nil
	}
	err := s.pool.QueryRow(ctx, `INSERT INTO dmem_namespaces (usr, agent, session) VALUES ($1, $2, $3)
		ON CONFLICT (usr, agent, session) DO UPDATE SET usr = EXCLUDED.usr RETURNING id`,
		ns.User, ns.Agent, ns.Session).Scan(&id)
	if err != nil {
		return 0, s.fail("namespace "+ns.String(), err)
	}
	s.mu.Lock()
	s.ids[ns] = id
	s.mu.Unlock()
	return id, nil
}

// Commit applies ops in one transaction. It first locks the namespace's
// row, so commits to one namespace apply one after another whichever
// process sends them: an eviction counts every writer's records. Priority
// changes and term counts are computed by the database from what it
// holds, never from a copy in Go.
func (s *Store) Commit(ctx context.Context, ns engram.Namespace, ops []store.Op) error {
	for _, op := range ops {
		if err := op.Check(); err != nil {
			return fmt.Errorf("pgstore: commit: %w", err)
		}
	}
	id, err := s.id(ctx, ns)
	if err != nil {
		return err
	}
	for _, op := range ops {
		if op.Kind == store.OpPut {
			if err := s.index(ctx, op.Record.Embedding); err != nil {
				return err
			}
		}
	}
	b := &pgx.Batch{}
	b.Queue("SELECT 1 FROM dmem_namespaces WHERE id = $1 FOR NO KEY UPDATE", id)
	terms := map[string]int64{}
	var state []byte
	flush := func() {
		if len(terms) > 0 {
			ts, ns := make([]string, 0, len(terms)), make([]int64, 0, len(terms))
			for t, n := range terms {
				ts, ns = append(ts, t), append(ns, n)
			}
			b.Queue(`INSERT INTO dmem_terms (ns, term, n) SELECT $1, t, n FROM unnest($2::text[], $3::bigint[]) AS x (t, n)
				ON CONFLICT (ns, term) DO UPDATE SET n = dmem_terms.n + EXCLUDED.n`, id, ts, ns)
			clear(terms)
		}
		if state != nil {
			b.Queue("UPDATE dmem_namespaces SET state = $2 WHERE id = $1", id, state)
			state = nil
		}
	}
	for _, op := range ops {
		r := op.Record
		switch op.Kind {
		case store.OpPut:
			// The priority is the database's once the row exists.
			b.Queue(`INSERT INTO dmem_units (ns, seq, route, log_p, delta, gate, novelty, reward, embedding, data`+s.vecColumn()+`)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10`+s.vecValue()+`)
				ON CONFLICT (ns, seq) DO UPDATE SET route = EXCLUDED.route, delta = EXCLUDED.delta, gate = EXCLUDED.gate,
					novelty = EXCLUDED.novelty, reward = EXCLUDED.reward, embedding = EXCLUDED.embedding, data = EXCLUDED.data`+s.vecUpdate(),
				s.putArgs(id, r)...)
		case store.OpDelete:
			b.Queue("DELETE FROM dmem_units WHERE ns = $1 AND seq = $2", id, op.Seq)
		case store.OpLog:
			b.Queue(`INSERT INTO dmem_log (ns, seq, route, log_p, delta, gate, novelty, reward, data)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
				ON CONFLICT (ns, seq) DO UPDATE SET route = EXCLUDED.route, log_p = EXCLUDED.log_p, delta = EXCLUDED.delta,
					gate = EXCLUDED.gate, novelty = EXCLUDED.novelty, reward = EXCLUDED.reward, data = EXCLUDED.data, logged_at = now()`,
				id, r.Seq, int16(r.Route), r.LogP, r.Delta, r.Gate, r.Novelty, r.Reward, data(r.Data))
		case store.OpUnlog:
			b.Queue("DELETE FROM dmem_log WHERE ns = $1 AND seq = $2", id, op.Seq)
		case store.OpPriority:
			// store.NewLogP, in SQL, with its floor and ceiling. power()
			// raises an error on underflow where Go's Exp2 returns 0; below
			// 2^-1000 the floor wins anyway.
			b.Queue(`UPDATE dmem_units SET log_p = ln(least(greatest(power(2::float8, greatest(log_p - $3, -1000)) * $4 + $5, $6, 1e-9), 1e6)) / ln(2::float8) + $3
				WHERE ns = $1 AND seq = $2`, id, op.Seq, op.At, op.Mul, op.Add, op.Min)
		case store.OpEvict:
			b.Queue(`WITH victims AS (
					DELETE FROM dmem_units WHERE ns = $1 AND seq IN (
						SELECT seq FROM dmem_units WHERE ns = $1 AND route = $3
						ORDER BY log_p DESC, seq DESC OFFSET $2)
					RETURNING seq, log_p, delta, gate, novelty, reward, data)
				INSERT INTO dmem_log (ns, seq, route, log_p, delta, gate, novelty, reward, data)
				SELECT $1, seq, $4, log_p, delta, gate, novelty, reward, data FROM victims
				ON CONFLICT (ns, seq) DO UPDATE SET route = EXCLUDED.route, log_p = EXCLUDED.log_p, delta = EXCLUDED.delta,
					gate = EXCLUDED.gate, novelty = EXCLUDED.novelty, reward = EXCLUDED.reward, data = EXCLUDED.data, logged_at = now()`,
				id, max(op.Capacity, 0), int16(store.RouteCore), int16(store.RouteNowhere))
		case store.OpTerm:
			terms[op.Term] += op.N
		case store.OpState:
			state = op.State
			if state == nil {
				state = []byte{}
			}
		case store.OpClear:
			terms, state = map[string]int64{}, nil // cleared before they land
			b.Queue("DELETE FROM dmem_units WHERE ns = $1", id)
			b.Queue("DELETE FROM dmem_log WHERE ns = $1", id)
			b.Queue("DELETE FROM dmem_terms WHERE ns = $1", id)
			b.Queue("UPDATE dmem_namespaces SET state = NULL WHERE id = $1", id)
		}
	}
	flush()
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		return tx.SendBatch(ctx, b).Close()
	})
	if err != nil {
		return s.fail("commit to "+ns.String(), err)
	}
	return nil
}

func data(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

func (s *Store) putArgs(id int64, r store.Record) []any {
	args := []any{id, r.Seq, int16(r.Route), r.LogP, r.Delta, r.Gate, r.Novelty, r.Reward, encodeVec(r.Embedding), data(r.Data)}
	if s.vecCol {
		args = append(args, vectorText(r.Embedding))
	}
	return args
}

func (s *Store) vecColumn() string { return cond(s.vecCol, ", vec") }
func (s *Store) vecValue() string  { return cond(s.vecCol, ", $11::vector") }
func (s *Store) vecUpdate() string { return cond(s.vecCol, ", vec = EXCLUDED.vec") }

func cond(b bool, s string) string {
	if b {
		return s
	}
	return ""
}

// vectorText renders v as a pgvector literal; nil (SQL NULL) for a vector
// no search may return.
func vectorText(v []float32) *string {
	if zero(v) {
		return nil
	}
	var sb strings.Builder
	sb.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.FormatFloat(float64(x), 'g', -1, 32))
	}
	sb.WriteByte(']')
	s := sb.String()
	return &s
}

func zero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// maxReserve is the most sequence numbers one Reserve takes, far below
// the bigint counter's range.
const maxReserve = 1 << 40

// maxIndexDims is the most dimensions pgvector's HNSW index takes; larger
// vectors are stored and searched without one, by a scan.
const maxIndexDims = 2000

// indexLock is the first key of the advisory lock held while creating a
// dimension's index; the dimension is the second.
const indexLock int32 = 0x686e7377 // "hnsw"

// index creates, with pgvector, the HNSW index of the dimension of v when
// its first vector arrives. pgvector indexes one dimension per index, so
// each is a partial expression index (as the extension's documentation
// shows for mixed dimensions).
func (s *Store) index(ctx context.Context, v []float32) error {
	if !s.vector || zero(v) || len(v) > maxIndexDims {
		return nil
	}
	n := len(v)
	s.mu.Lock()
	done := s.indexed[n]
	s.mu.Unlock()
	if done {
		return nil
	}
	// CREATE INDEX IF NOT EXISTS is not safe against itself: two sessions
	// both find no index and one fails on the catalogue's unique key. An
	// advisory lock per dimension makes the second wait and find it.
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1, $2)", indexLock, int32(n)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, fmt.Sprintf(`CREATE INDEX IF NOT EXISTS dmem_units_hnsw_%d ON dmem_units
			USING hnsw ((vec::vector(%d)) vector_cosine_ops) WHERE vector_dims(vec) = %d`, n, n, n))
		return err
	})
	if err != nil {
		return s.fail(fmt.Sprintf("index dimension %d", n), err)
	}
	s.mu.Lock()
	s.indexed[n] = true
	s.mu.Unlock()
	return nil
}

// Reserve takes n sequence numbers from the namespace's counter in one
// atomic update.
func (s *Store) Reserve(ctx context.Context, ns engram.Namespace, n int) (int64, error) {
	if n <= 0 || n > maxReserve {
		return 0, fmt.Errorf("pgstore: reserve %d: %w", n, engram.ErrInvalidInput)
	}
	id, err := s.id(ctx, ns)
	if err != nil {
		return 0, err
	}
	var first int64
	err = s.pool.QueryRow(ctx, "UPDATE dmem_namespaces SET next_seq = next_seq + $2 WHERE id = $1 RETURNING next_seq - $2", id, int64(n)).Scan(&first)
	if err != nil {
		return 0, s.fail("reserve", err)
	}
	return first, nil
}

// Release implements [store.Releaser] with one compare-and-set update:
// the counter goes back to from only if it still stands at end, so when
// another process has reserved since, the numbers stay taken and
// sequence numbers stay unique across processes.
func (s *Store) Release(ctx context.Context, ns engram.Namespace, from, end int64) error {
	if from < 0 || from > end {
		return fmt.Errorf("pgstore: release [%d, %d): %w", from, end, engram.ErrInvalidInput)
	}
	if from == end {
		return nil
	}
	id, err := s.id(ctx, ns)
	if err != nil {
		return err
	}
	if _, err := s.pool.Exec(ctx, "UPDATE dmem_namespaces SET next_seq = $2 WHERE id = $1 AND next_seq = $3", id, from, end); err != nil {
		return s.fail("release", err)
	}
	return nil
}

const unitColumns = "seq, route, log_p, delta, gate, novelty, reward, embedding, data"

func scanRecord(row pgx.Row) (store.Record, error) {
	var r store.Record
	var route int16
	var emb []byte
	if err := row.Scan(&r.Seq, &route, &r.LogP, &r.Delta, &r.Gate, &r.Novelty, &r.Reward, &emb, &r.Data); err != nil {
		return r, err
	}
	r.Route = store.Route(route)
	var err error
	r.Embedding, err = decodeVec(emb)
	if err == nil {
		err = checkRecord(&r)
	}
	if err != nil {
		err = fmt.Errorf("record %d: %w", r.Seq, err)
	}
	return r, err
}

// checkRecord checks a record read from the database as dmem checks one
// read from its file: a statistic that is not finite is repaired to 0 (it
// would make every commit that writes the record back fail); an unknown
// route makes the record damaged.
func checkRecord(r *store.Record) error {
	for _, x := range [...]*float64{&r.LogP, &r.Delta, &r.Gate, &r.Novelty, &r.Reward} {
		if math.IsNaN(*x) || math.IsInf(*x, 0) {
			*x = 0
		}
	}
	if r.Route > store.RouteMerged || r.Seq < 0 {
		return fmt.Errorf("%w: record %d has route %d", errUndecodable, r.Seq, r.Route)
	}
	return nil
}

// collect reads every row with scan, skipping (with a warning) rows whose
// stored bytes do not decode: as in the embedded store, a damaged record
// costs that record, never the namespace.
func collect[T any](rows pgx.Rows, scan func(pgx.Row) (T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		x, err := scan(rows)
		if errors.Is(err, errUndecodable) {
			slog.Warn("pgstore: skipping a damaged record", "err", err)
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, rows.Err()
}

// Get returns a stored record.
func (s *Store) Get(ctx context.Context, ns engram.Namespace, seq int64) (store.Record, error) {
	id, err := s.id(ctx, ns)
	if err != nil {
		return store.Record{}, err
	}
	r, err := scanRecord(s.pool.QueryRow(ctx, "SELECT "+unitColumns+" FROM dmem_units WHERE ns = $1 AND seq = $2", id, seq))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return store.Record{}, fmt.Errorf("pgstore: record %d of %s: %w", seq, ns, engram.ErrNotFound)
	case err != nil:
		return store.Record{}, s.fail("get", err)
	}
	return r, nil
}

// Scan calls fn for the namespace's stored or logged records by Seq.
func (s *Store) Scan(ctx context.Context, ns engram.Namespace, log bool, fn func(store.Record) error) error {
	id, err := s.id(ctx, ns)
	if err != nil {
		return err
	}
	q := "SELECT " + unitColumns + " FROM dmem_units WHERE ns = $1 ORDER BY seq"
	if log {
		q = "SELECT seq, route, log_p, delta, gate, novelty, reward, ''::bytea, data FROM dmem_log WHERE ns = $1 ORDER BY seq"
	}
	rows, err := s.pool.Query(ctx, q, id)
	if err != nil {
		return s.fail("scan", err)
	}
	// Collected first, so that fn holds no connection and may commit.
	rs, err := collect(rows, scanRecord)
	if err != nil {
		return s.fail("scan", err)
	}
	return store.Visit(ctx, rs, fn)
}

// Load returns the namespace's learned state and term counts.
func (s *Store) Load(ctx context.Context, ns engram.Namespace) (store.Snapshot, error) {
	id, err := s.id(ctx, ns)
	if err != nil {
		return store.Snapshot{}, err
	}
	snap := store.Snapshot{Terms: make(map[string]int64)}
	if err := s.pool.QueryRow(ctx, "SELECT state FROM dmem_namespaces WHERE id = $1", id).Scan(&snap.State); err != nil {
		return store.Snapshot{}, s.fail("load", err)
	}
	rows, err := s.pool.Query(ctx, "SELECT term, n FROM dmem_terms WHERE ns = $1", id)
	if err != nil {
		return store.Snapshot{}, s.fail("load", err)
	}
	var t string
	var n int64
	_, err = pgx.ForEachRow(rows, []any{&t, &n}, func() error { snap.Terms[t] = n; return nil })
	if err != nil {
		return store.Snapshot{}, s.fail("load", err)
	}
	return snap, nil
}
