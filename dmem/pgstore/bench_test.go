package pgstore_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/boltstore"
	"github.com/engram-go/engram/dmem/store"
)

// benchUnits is the size of the benchmark tenant.
const benchUnits = 10000

func benchRecord(r *rand.Rand, seq int64, dim int) store.Record {
	v := make([]float32, dim)
	var n float64
	for i := range v {
		v[i] = float32(r.NormFloat64())
		n += float64(v[i]) * float64(v[i])
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return store.Record{Seq: seq, Route: store.RouteCore, LogP: r.NormFloat64(), Embedding: v,
		Data: fmt.Appendf(nil, "%0300d", seq)} // about the size of an encoded unit
}

// BenchmarkStores runs the embedded store and the PostgreSQL store (exact
// scan, and pgvector's HNSW index where the server has it) side by side on one tenant of 10k units of dimension 512 (the
// offline embedder's): inserting (commits of 64 units and their terms,
// then an eviction back to 10k, as D-MEM commits them) and querying (the
// 32 nearest, D-MEM's fewest candidates).
//
//	ENGRAM_PG_DSN=… go test -run '^$' -bench BenchmarkStores -benchtime 3s ./dmem/pgstore/
func BenchmarkStores(b *testing.B) {
	const dim = 512
	stores := []struct {
		name string
		open func(b *testing.B) store.Store
	}{
		{"embedded", func(b *testing.B) store.Store {
			s, err := boltstore.Open(context.Background(), b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
		{"postgres-exact", func(b *testing.B) store.Store { return open(b, dmemExact()...) }},
		{"postgres-pgvector", func(b *testing.B) store.Store {
			s := open(b)
			if s.String() != pgvectorStore {
				s.Close()
				b.Skip("the server does not offer the pgvector extension")
			}
			return s
		}},
	}
	for _, st := range stores {
		b.Run(st.name, func(b *testing.B) {
			s := st.open(b)
			defer s.Close()
			ns := engram.Namespace{User: fmt.Sprintf("bench-%x", rand.Uint64())}
			defer s.Commit(bg, ns, []store.Op{store.Clear()}) // leave the database as it was
			r := rand.New(rand.NewPCG(1, 2))
			first, err := s.Reserve(bg, ns, benchUnits)
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < benchUnits; i += 500 {
				var ops []store.Op
				for k := i; k < min(i+500, benchUnits); k++ {
					ops = append(ops, store.Put(benchRecord(r, first+int64(k), dim)))
				}
				if err := s.Commit(bg, ns, ops); err != nil {
					b.Fatal(err)
				}
			}
			if st.name != "embedded" {
				analyze(b)
			}
			b.Run("insert", func(b *testing.B) {
				for b.Loop() {
					first, err := s.Reserve(bg, ns, 64)
					if err != nil {
						b.Fatal(err)
					}
					ops := make([]store.Op, 0, 64*4+1)
					for k := range int64(64) {
						ops = append(ops, store.Put(benchRecord(r, first+k, dim)), store.Term(fmt.Sprint("term", r.IntN(5000)), 1),
							store.Term(fmt.Sprint("term", r.IntN(5000)), 1), store.Term(fmt.Sprint("term", r.IntN(5000)), 1))
					}
					if err := s.Commit(bg, ns, append(ops, store.Evict(benchUnits))); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(64*float64(b.N)/b.Elapsed().Seconds(), "units/s")
			})
			b.Run("query", func(b *testing.B) {
				qs := make([][]float32, 64)
				for i := range qs {
					qs[i] = benchRecord(r, 0, dim).Embedding
				}
				i := 0
				for b.Loop() {
					hits, err := s.Query(bg, ns, qs[i%len(qs)], 32)
					if err != nil || len(hits) != 32 {
						b.Fatalf("%d hits, %v", len(hits), err)
					}
					i++
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
			})
		})
	}
}

// analyze refreshes the planner's statistics after the bulk load, as
// autovacuum would in a running system: without them PostgreSQL thinks the
// new tenant small and sorts it by distance instead of using the index.
func analyze(b *testing.B) {
	b.Helper()
	conn, err := pgx.Connect(bg, os.Getenv(dsnEnv))
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(bg)
	if _, err := conn.Exec(bg, "ANALYZE dmem_units"); err != nil {
		b.Fatal(err)
	}
}
