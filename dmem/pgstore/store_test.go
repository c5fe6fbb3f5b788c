package pgstore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/pgstore"
	"github.com/engram-go/engram/dmem/store"
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
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, pgstore.WithExactSearch()) })
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
	storetest.Run(t, func(t *testing.T) store.Store { return open(t) })
}

// pgvectorOrSkip opens a store that searches with pgvector, or skips.
func pgvectorOrSkip(t *testing.T) *pgstore.Store {
	s := open(t)
	if s.String() != pgvectorStore {
		s.Close()
		t.Skip("the server does not offer the pgvector extension")
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Vectors wider than pgvector's HNSW index takes (2,000 dimensions) are
// stored and found, by a scan.
func TestWideVectors(t *testing.T) {
	s := pgvectorOrSkip(t)
	ns := engram.Namespace{User: fmt.Sprintf("wide-%x", rand.Uint64())}
	t.Cleanup(func() { s.Commit(bg, ns, []store.Op{store.Clear()}) })
	v := make([]float32, 3072)
	v[7] = 1
	if err := s.Commit(bg, ns, []store.Op{store.Put(store.Record{Seq: 1, Route: store.RouteCore, Embedding: v})}); err != nil {
		t.Fatal(err)
	}
	hits, err := s.Query(bg, ns, v, 3)
	if err != nil || len(hits) != 1 || hits[0].Seq != 1 {
		t.Fatalf("Query = %+v, %v", hits, err)
	}
}

// A process searching by exact scan and one using pgvector share a
// namespace: each finds the other's units.
func TestMixedSearchModes(t *testing.T) {
	vec := pgvectorOrSkip(t)
	exact := open(t, pgstore.WithExactSearch())
	t.Cleanup(func() { exact.Close() })
	ns := engram.Namespace{User: fmt.Sprintf("mixed-%x", rand.Uint64())}
	t.Cleanup(func() { vec.Commit(bg, ns, []store.Op{store.Clear()}) })
	if err := vec.Commit(bg, ns, []store.Op{store.Put(store.Record{Seq: 1, Route: store.RouteCore, Embedding: []float32{1, 0}})}); err != nil {
		t.Fatal(err)
	}
	if err := exact.Commit(bg, ns, []store.Op{store.Put(store.Record{Seq: 2, Route: store.RouteCore, Embedding: []float32{0, 1}})}); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*pgstore.Store{"pgvector": vec, "exact": exact} {
		hits, err := s.Query(bg, ns, []float32{0, 1}, 5)
		if err != nil || len(hits) != 2 || hits[0].Seq != 2 {
			t.Errorf("%s store: Query = %+v, %v; want both units, 2 first", name, hits, err)
		}
	}
}
