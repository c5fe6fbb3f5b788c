package pgstore

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrateLock is the advisory lock key held while migrating, so that
// processes starting together apply each migration once.
const migrateLock = 0x646d656d_6d696772 // "dmemmigr"

// migration is one versioned schema change: migrations/NNNN_name.sql.
type migration struct {
	version int64
	name    string
	sql     string
}

func loadMigrations() ([]migration, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, n := range names {
		base := strings.TrimPrefix(n, "migrations/")
		v, err := strconv.ParseInt(strings.SplitN(base, "_", 2)[0], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("migration %s: no version: %w", n, err)
		}
		b, err := migrations.ReadFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: base, sql: string(b)})
	}
	slices.SortFunc(out, func(a, b migration) int { return int(a.version - b.version) })
	return out, nil
}

// migrate applies the migrations not yet recorded in
// dmem_schema_migrations, each in its own transaction, under an advisory
// lock; with vector set it then enables pgvector and adds the vector
// column. It returns whether pgvector is in use.
func migrate(ctx context.Context, pool *pgxpool.Pool, vector bool) (bool, error) {
	ms, err := loadMigrations()
	if err != nil {
		return false, err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", int64(migrateLock)); err != nil {
		return false, err
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", int64(migrateLock))

	_, err = conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS dmem_schema_migrations (
		version    bigint PRIMARY KEY,
		name       text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`)
	if err != nil {
		return false, err
	}
	applied := map[int64]bool{}
	rows, err := conn.Query(ctx, "SELECT version FROM dmem_schema_migrations")
	if err != nil {
		return false, err
	}
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return false, err
		}
		applied[v] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, err
	}
	for _, m := range ms {
		if applied[m.version] {
			continue
		}
		tx, err := conn.Begin(ctx)
		if err != nil {
			return false, err
		}
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			tx.Rollback(ctx)
			return false, fmt.Errorf("migration %s: %w", m.name, err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO dmem_schema_migrations (version, name) VALUES ($1, $2)", m.version, m.name); err != nil {
			tx.Rollback(ctx)
			return false, err
		}
		if err := tx.Commit(ctx); err != nil {
			return false, fmt.Errorf("migration %s: %w", m.name, err)
		}
	}

	if !vector {
		return false, nil
	}
	var available bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')").Scan(&available); err != nil {
		return false, err
	}
	if !available {
		return false, nil
	}
	// The column has no fixed dimension: each dimension gets its own
	// partial HNSW index when its first vector arrives (see Store.index).
	_, err = conn.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS vector;
		ALTER TABLE dmem_units ADD COLUMN IF NOT EXISTS vec vector`)
	if err != nil {
		return false, fmt.Errorf("enable pgvector: %w", err)
	}
	return true, nil
}
