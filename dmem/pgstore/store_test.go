package pgstore_test

import (
	"context"
	"os"
	"testing"

	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/dmem/pgstore"
	"github.com/engram-go/engram/dmem/storetest"
)

// dsnEnv names the database the tests use, e.g.
// postgres://engram:engram@localhost:5432/engram?sslmode=disable.
const dsnEnv = "ENGRAM_PG_DSN"

// open opens a store on the test database. Without one the test is
// skipped, except under CI, where it fails: CI must prove these tests.
func open(t testing.TB, opts ...pgstore.Option) *pgstore.Store {
	t.Helper()
	dsn := os.Getenv(dsnEnv)
	unavailable := t.Skipf
	if os.Getenv("CI") != "" {
		unavailable = t.Fatalf
	}
	if dsn == "" {
		unavailable("%s is not set: no PostgreSQL to test against", dsnEnv)
	}
	s, err := pgstore.Open(context.Background(), dsn, opts...)
	if err != nil {
		unavailable("PostgreSQL at %s unreachable: %v", dsnEnv, err)
	}
	return s
}

// The exact-scan store passes the conformance suite against a real server.
func dmemExact() []pgstore.Option { return []pgstore.Option{pgstore.WithExactSearch()} }

func TestConformance(t *testing.T) {
	open(t, pgstore.WithExactSearch()).Close()
	storetest.Run(t, func(t *testing.T) dmem.Store { return open(t, pgstore.WithExactSearch()) })
}

// pgvectorStore is what a store searching with pgvector calls itself.
const pgvectorStore = "postgres, pgvector HNSW (cosine)"

// Where the server offers pgvector, the HNSW path passes it too.
func TestConformancePgvector(t *testing.T) {
	s := open(t)
	if s.String() != pgvectorStore {
		s.Close()
		t.Skip("the server does not offer the pgvector extension")
	}
	s.Close()
	storetest.Run(t, func(t *testing.T) dmem.Store { return open(t) })
}
