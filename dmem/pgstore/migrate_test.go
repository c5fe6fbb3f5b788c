package pgstore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// A database written by the first schema, with real[] embeddings, keeps
// every embedding bit for bit when migration 2 turns them into bytea.
func TestMigrationKeepsEmbeddings(t *testing.T) {
	ctx := context.Background()
	dsn := os.Getenv("ENGRAM_PG_DSN")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("ENGRAM_PG_DSN is not set under CI")
		}
		t.Skip("ENGRAM_PG_DSN is not set: no PostgreSQL to test against")
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	schema := fmt.Sprintf("engram_migrate_%x", rand.Uint64())
	admin, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE") })
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()

	ms, err := loadMigrations()
	if err != nil || len(ms) < 2 || ms[0].version != 1 {
		t.Fatalf("migrations: %v, %v", ms, err)
	}
	v1 := `CREATE TABLE dmem_schema_migrations (version bigint PRIMARY KEY, name text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now());
		INSERT INTO dmem_schema_migrations (version, name) VALUES (1, '0001_init.sql');` + ms[0].sql
	if _, err := pool.Exec(ctx, v1); err != nil {
		t.Fatal(err)
	}
	vecs := [][]float32{{0.5, -1.25, 3e-7, 1e30}, {}, {-0.0, 7}}
	if _, err := pool.Exec(ctx, "INSERT INTO dmem_namespaces (id, usr, agent, session) VALUES (1, 'u', '', '')"); err != nil {
		t.Fatal(err)
	}
	for i, v := range vecs {
		_, err := pool.Exec(ctx, `INSERT INTO dmem_units (ns, seq, route, log_p, delta, gate, novelty, reward, embedding, data)
			VALUES (1, $1, 2, 0, 0, 0, 0, 0, $2, '\x00')`, i, v)
		if err != nil {
			t.Fatal(err)
		}
	}

	if _, err := migrate(ctx, pool, false); err != nil {
		t.Fatal(err)
	}
	for i, want := range vecs {
		var raw []byte
		if err := pool.QueryRow(ctx, "SELECT embedding FROM dmem_units WHERE ns = 1 AND seq = $1", i).Scan(&raw); err != nil {
			t.Fatal(err)
		}
		got, err := decodeVec(raw)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("unit %d: embedding %v after the migration, %v before", i, got, want)
		}
		if !slices.Equal(raw, encodeVec(want)) {
			t.Errorf("unit %d: stored as %x, want %x", i, raw, encodeVec(want))
		}
	}
}

func TestVecCodec(t *testing.T) {
	for _, v := range [][]float32{nil, {1}, {0.25, -3, 1e-38}} {
		got, err := decodeVec(encodeVec(v))
		if err != nil || !slices.Equal(got, v) {
			t.Errorf("decodeVec(encodeVec(%v)) = %v, %v", v, got, err)
		}
	}
	if _, err := decodeVec([]byte{1, 2, 3}); err == nil {
		t.Error("a 3-byte embedding was accepted")
	}
}
