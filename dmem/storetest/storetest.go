package storetest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/option"
)

// Run checks the stores open returns. open is called once at the start and
// again to reopen; every store it returns must see what the ones before it
// committed, and only one is open at a time. Run closes them.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	s := &suite{open: open, run: fmt.Sprintf("%x", rand.Uint64())}
	s.store = open(t)
	t.Cleanup(func() { s.store.Close() })
	tests := []struct {
		name string
		fn   func(*testing.T)
	}{
		{"PutGet", s.putGet},
		{"PutKeepsPriority", s.putKeepsPriority},
		{"Priority", s.priority},
		{"PriorityExtremes", s.priorityExtremes},
		{"InvalidOps", s.invalidOps},
		{"Evict", s.evict},
		{"DeleteAndLog", s.deleteAndLog},
		{"Query", s.query},
		{"Scan", s.scan},
		{"TermsAndState", s.termsAndState},
		{"Reserve", s.reserve},
		{"Release", s.release},
		{"Namespaces", s.namespaces},
		{"Concurrent", s.concurrent},
		{"Tenants", s.tenants},
		{"Memories", s.memories},
		{"Facts", s.facts},
		{"Faults", s.faults},
		{"Clear", s.clear},
		{"Reopen", s.reopen},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.fn)
	}
}

type suite struct {
	open  func(t *testing.T) store.Store
	store store.Store
	run   string // makes this run's namespaces its own
}

var bg = context.Background()

// ns returns a namespace no other test or run uses.
func (s *suite) ns(t *testing.T, parts ...string) engram.Namespace {
	return engram.Namespace{User: "storetest-" + s.run, Agent: t.Name(), Session: strings.Join(parts, "/")}
}

func commit(t testing.TB, st store.Store, ns engram.Namespace, ops ...store.Op) {
	t.Helper()
	if err := st.Commit(bg, ns, ops); err != nil {
		t.Fatal(err)
	}
}

// rec returns a record with a recognisable Data and a random vector.
func rec(r *rand.Rand, seq int64, route store.Route, logP float64, dim int) store.Record {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return store.Record{Seq: seq, Route: route, LogP: logP, Delta: r.NormFloat64(), Gate: r.Float64(),
		Novelty: r.Float64(), Reward: r.NormFloat64(), Embedding: v, Data: fmt.Appendf(nil, "record %d", seq)}
}

func equal(a, b store.Record) bool {
	return a.Seq == b.Seq && a.Route == b.Route && a.LogP == b.LogP && a.Delta == b.Delta && a.Gate == b.Gate &&
		a.Novelty == b.Novelty && a.Reward == b.Reward && slices.Equal(a.Embedding, b.Embedding) && string(a.Data) == string(b.Data)
}

func scanAll(t testing.TB, st store.Store, ns engram.Namespace, log bool) []store.Record {
	t.Helper()
	var out []store.Record
	if err := st.Scan(bg, ns, log, func(r store.Record) error { out = append(out, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func seqs(rs []store.Record) []int64 {
	out := make([]int64, len(rs))
	for i, r := range rs {
		out[i] = r.Seq
	}
	return out
}

func (s *suite) putGet(t *testing.T) {
	ns, r := s.ns(t), rand.New(rand.NewPCG(1, 1))
	want := []store.Record{rec(r, 0, store.RouteCore, 1.5, 8), rec(r, 7, store.RouteShort, -2, 8), rec(r, 1<<40, store.RouteCore, 0, 0)}
	want[2].Data = nil
	commit(t, s.store, ns, store.Put(want[0]), store.Put(want[1]), store.Put(want[2]))
	for _, w := range want {
		got, err := s.store.Get(bg, ns, w.Seq)
		if err != nil || !equal(got, w) {
			t.Fatalf("Get(%d) = %+v, %v; want %+v", w.Seq, got, err, w)
		}
	}
	if _, err := s.store.Get(bg, ns, 3); !errors.Is(err, engram.ErrNotFound) {
		t.Fatalf("Get of a missing record: err = %v, want ErrNotFound", err)
	}
	// A failed commit changes nothing.
	bad := rec(r, 9, store.RouteCore, 0, 8)
	if err := s.store.Commit(bg, ns, []store.Op{store.Put(bad), {Kind: store.OpKind(250)}}); err == nil {
		t.Fatal("a commit with an unknown op succeeded")
	}
	if _, err := s.store.Get(bg, ns, 9); !errors.Is(err, engram.ErrNotFound) {
		t.Fatalf("a failed commit was partly applied: err = %v", err)
	}
}

func (s *suite) putKeepsPriority(t *testing.T) {
	ns, r := s.ns(t), rand.New(rand.NewPCG(2, 1))
	a := rec(r, 1, store.RouteShort, 3, 8)
	commit(t, s.store, ns, store.Put(a))
	b := rec(r, 1, store.RouteCore, -7, 8)
	commit(t, s.store, ns, store.Put(b))
	got, err := s.store.Get(bg, ns, 1)
	b.LogP = 3
	if err != nil || !equal(got, b) {
		t.Fatalf("after a second put: %+v, %v; want %+v (first LogP kept)", got, err, b)
	}
}

func (s *suite) priority(t *testing.T) {
	ns, r := s.ns(t), rand.New(rand.NewPCG(3, 1))
	commit(t, s.store, ns, store.Put(rec(r, 1, store.RouteCore, 1, 8)), store.Put(rec(r, 2, store.RouteShort, 0, 8)))
	steps := []struct{ at, mul, add, min float64 }{
		{0, 3, 1, 0},     // 2·3 + 1 = 7
		{1, 1, 0, 10},    // at age 1: 3.5 raised to 10
		{1, 0, 0.25, 0},  // set to 0.25
		{2.5, 2, 0, 0.1}, // 0.25/2^1.5 · 2
	}
	want := 1.0
	for _, st := range steps {
		commit(t, s.store, ns, store.Priority(1, st.at, st.mul, st.add, st.min), store.Priority(2, st.at, st.mul, st.add, st.min))
		want = store.NewLogP(want, st.at, st.mul, st.add, st.min)
		got, err := s.store.Get(bg, ns, 1)
		if err != nil || math.Abs(got.LogP-want) > 1e-9 {
			t.Fatalf("after %+v: LogP %v, %v; want %v", st, got.LogP, err, want)
		}
	}
	commit(t, s.store, ns, store.Priority(99, 0, 2, 0, 0)) // no such record: no-op
	if _, err := s.store.Get(bg, ns, 99); !errors.Is(err, engram.ErrNotFound) {
		t.Fatalf("a priority change created a record: %v", err)
	}

	// Concurrent additions to one record all count.
	commit(t, s.store, ns, store.Priority(1, 0, 0, 1, 0))
	var wg sync.WaitGroup
	const writers, adds = 4, 20
	for range writers {
		wg.Go(func() {
			for range adds {
				if err := s.store.Commit(bg, ns, []store.Op{store.Priority(1, 0, 1, 1, 0)}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	got, err := s.store.Get(bg, ns, 1)
	if want := math.Log2(1 + writers*adds); err != nil || math.Abs(got.LogP-want) > 1e-9 {
		t.Fatalf("after %d concurrent additions of 1 to 1: priority %v, %v; want %d", writers*adds, math.Exp2(got.LogP), err, 1+writers*adds)
	}
}

func (s *suite) evict(t *testing.T) {
	ns, r := s.ns(t), rand.New(rand.NewPCG(4, 1))
	var ops []store.Op
	var core []store.Record
	for i := range 30 {
		x := rec(r, int64(i), store.RouteCore, r.NormFloat64(), 8)
		if i == 7 || i == 8 {
			x.LogP = -100 // a tie: the older goes first
		}
		core = append(core, x)
		ops = append(ops, store.Put(x))
	}
	for i := 30; i < 35; i++ {
		ops = append(ops, store.Put(rec(r, int64(i), store.RouteShort, -1000, 8)))
	}
	commit(t, s.store, ns, ops...)
	commit(t, s.store, ns, store.Evict(29))
	if l := scanAll(t, s.store, ns, true); len(l) != 1 || l[0].Seq != 7 {
		t.Fatalf("evicting one of a tie: log %v, want [7]", seqs(l))
	}
	commit(t, s.store, ns, store.Evict(10))
	slices.SortFunc(core, func(a, b store.Record) int { return cmp.Or(cmp.Compare(a.LogP, b.LogP), cmp.Compare(a.Seq, b.Seq)) })
	gone, kept := core[:20], core[20:]
	units := scanAll(t, s.store, ns, false)
	if len(units) != 15 {
		t.Fatalf("%d records after evicting to 10 core + 5 short, want 15", len(units))
	}
	for _, k := range kept {
		if _, err := s.store.Get(bg, ns, k.Seq); err != nil {
			t.Fatalf("record %d (LogP %v) evicted: %v", k.Seq, k.LogP, err)
		}
	}
	log := scanAll(t, s.store, ns, true)
	if len(log) != len(gone) {
		t.Fatalf("log holds %d records, want %d", len(log), len(gone))
	}
	bySeq := map[int64]store.Record{}
	for _, g := range gone {
		bySeq[g.Seq] = g
	}
	for _, l := range log {
		g, ok := bySeq[l.Seq]
		if !ok || l.Route != store.RouteNowhere || len(l.Embedding) != 0 || string(l.Data) != string(g.Data) || l.LogP != g.LogP {
			t.Fatalf("log entry %+v, evicted %+v", l, g)
		}
	}
	commit(t, s.store, ns, store.Evict(100)) // nothing to do
	if n := len(scanAll(t, s.store, ns, false)); n != 15 {
		t.Fatalf("evicting under capacity removed records: %d left", n)
	}
}

func (s *suite) deleteAndLog(t *testing.T) {
	ns, r := s.ns(t), rand.New(rand.NewPCG(5, 1))
	a, b := rec(r, 1, store.RouteCore, 0, 8), rec(r, 2, store.RouteCore, 0, 8)
	commit(t, s.store, ns, store.Put(a), store.Put(b))
	a.Route = store.RouteMerged
	commit(t, s.store, ns, store.Delete(1), store.Log(a), store.Delete(5), store.Unlog(6))
	if _, err := s.store.Get(bg, ns, 1); !errors.Is(err, engram.ErrNotFound) {
		t.Fatalf("deleted record: err = %v", err)
	}
	log := scanAll(t, s.store, ns, true)
	a.Embedding = nil
	if len(log) != 1 || !equal(log[0], a) {
		t.Fatalf("log = %+v, want %+v", log, a)
	}
	if hits, err := s.store.Query(bg, ns, b.Embedding, 5); err != nil || len(hits) != 1 || hits[0].Seq != 2 {
		t.Fatalf("query after delete: %v, %v", hits, err)
	}
	commit(t, s.store, ns, store.Unlog(1))
	if n := len(scanAll(t, s.store, ns, true)); n != 0 {
		t.Fatalf("log holds %d after unlog", n)
	}
}

func cosine(a, b []float32) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return d / math.Sqrt(na*nb)
}

func (s *suite) query(t *testing.T) {
	ns, r := s.ns(t), rand.New(rand.NewPCG(6, 1))
	const dim = 16
	q := rec(r, 0, 0, 0, dim).Embedding
	var ops []store.Op
	var core []store.Record
	for i := range 200 {
		x := rec(r, int64(i), store.RouteCore, r.NormFloat64(), dim)
		core = append(core, x)
		ops = append(ops, store.Put(x))
	}
	for i := 200; i < 210; i++ { // the query itself, but not core: never returned
		x := rec(r, int64(i), store.RouteShort, 0, dim)
		x.Embedding = q
		ops = append(ops, store.Put(x))
	}
	for i := 210; i < 215; i++ { // zero and other-dimension vectors: never returned
		x := rec(r, int64(i), store.RouteCore, 10, dim)
		x.Embedding = make([]float32, dim)
		ops = append(ops, store.Put(x), store.Put(rec(r, int64(i+10), store.RouteCore, 10, dim/2)))
	}
	commit(t, s.store, ns, ops...)
	slices.SortFunc(core, func(a, b store.Record) int { return cmp.Compare(cosine(q, b.Embedding), cosine(q, a.Embedding)) })
	for _, n := range []int{1, 10, 50} {
		hits, err := s.store.Query(bg, ns, q, n)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != n {
			t.Fatalf("Query(%d) returned %d hits", n, len(hits))
		}
		for i, h := range hits {
			want := core[i]
			if h.Seq != want.Seq || math.Abs(h.Similarity-cosine(q, want.Embedding)) > 1e-4 || !equal(h.Record, want) {
				t.Fatalf("Query(%d) hit %d: seq %d sim %.5f; exact answer seq %d sim %.5f", n, i, h.Seq, h.Similarity, want.Seq, cosine(q, want.Embedding))
			}
		}
	}
	if hits, err := s.store.Query(bg, ns, q, 1000); err != nil || len(hits) != 200 {
		t.Fatalf("Query(1000) over 200 searchable records: %d hits, %v", len(hits), err)
	}
	if hits, err := s.store.Query(bg, ns, q, 0); err != nil || len(hits) != 0 {
		t.Fatalf("Query(0): %d hits, %v", len(hits), err)
	}
	if hits, err := s.store.Query(bg, ns, make([]float32, dim), 5); err != nil || len(hits) != 0 {
		t.Fatalf("zero query: %d hits, %v", len(hits), err)
	}
	if hits, err := s.store.Query(bg, s.ns(t, "empty"), q, 5); err != nil || len(hits) != 0 {
		t.Fatalf("query of an empty namespace: %d hits, %v", len(hits), err)
	}
}

func (s *suite) scan(t *testing.T) {
	ns, r := s.ns(t), rand.New(rand.NewPCG(7, 1))
	var ops []store.Op
	want := map[int64]store.Record{}
	for _, seq := range r.Perm(300) {
		x := rec(r, int64(seq)*1000, store.Route(1+seq%2), 0, 4)
		want[x.Seq] = x
		ops = append(ops, store.Put(x))
	}
	commit(t, s.store, ns, ops...)
	got := scanAll(t, s.store, ns, false)
	if len(got) != len(want) || !slices.IsSorted(seqs(got)) {
		t.Fatalf("scan returned %d records, sorted %v; want %d sorted", len(got), slices.IsSorted(seqs(got)), len(want))
	}
	for _, g := range got {
		if !equal(g, want[g.Seq]) {
			t.Fatalf("scanned %+v, put %+v", g, want[g.Seq])
		}
	}
	stop := errors.New("stop")
	n := 0
	err := s.store.Scan(bg, ns, false, func(store.Record) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 3 {
		t.Fatalf("scan stopped by fn: err %v after %d calls", err, n)
	}
}

func (s *suite) termsAndState(t *testing.T) {
	ns := s.ns(t)
	snap, err := s.store.Load(bg, ns)
	if err != nil || len(snap.State) != 0 || len(snap.Terms) != 0 {
		t.Fatalf("empty namespace: %+v, %v", snap, err)
	}
	commit(t, s.store, ns, store.Term("priya", 1), store.Term("lisbon", 2), store.Term("priya", 1), store.State([]byte("one")))
	commit(t, s.store, ns, store.Term("priya", 3), store.Term("ünïcödé term", 1), store.State([]byte(`{"two":2}`)))
	snap, err = s.store.Load(bg, ns)
	want := map[string]int64{"priya": 5, "lisbon": 2, "ünïcödé term": 1}
	if err != nil || string(snap.State) != `{"two":2}` || fmt.Sprint(snap.Terms) != fmt.Sprint(want) {
		t.Fatalf("Load = %q %v, %v; want %q %v", snap.State, snap.Terms, err, `{"two":2}`, want)
	}
	// Concurrent increments all count.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 10 {
				if err := s.store.Commit(bg, ns, []store.Op{store.Term("priya", 1), store.Term("new", 1)}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if snap, err = s.store.Load(bg, ns); err != nil || snap.Terms["priya"] != 45 || snap.Terms["new"] != 40 {
		t.Fatalf("after 40 concurrent increments: %v, %v", snap.Terms, err)
	}
}

func (s *suite) reserve(t *testing.T) {
	ns := s.ns(t)
	if _, err := s.store.Reserve(bg, ns, 0); !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("Reserve(0): err = %v, want ErrInvalidInput", err)
	}
	var mu sync.Mutex
	taken := map[int64]bool{}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 25 {
				n := 1 + (g+i)%5
				first, err := s.store.Reserve(bg, ns, n)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for k := first; k < first+int64(n); k++ {
					if taken[k] || k < 0 {
						t.Errorf("sequence number %d reserved twice", k)
					}
					taken[k] = true
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	// Reservations survive a commit that uses them, and a commit of another namespace.
	first, _ := s.store.Reserve(bg, ns, 1)
	commit(t, s.store, ns, store.Put(store.Record{Seq: first, Route: store.RouteShort, Data: []byte("x")}))
	commit(t, s.store, s.ns(t, "other"), store.Term("x", 1))
	if next, err := s.store.Reserve(bg, ns, 1); err != nil || next <= first {
		t.Fatalf("reserve after %d: %d, %v", first, next, err)
	}
}

// release checks a [store.Releaser]: the unused end of the latest block
// is handed out again, that of an older block never is.
func (s *suite) release(t *testing.T) {
	r, ok := s.store.(store.Releaser)
	if !ok {
		t.Skip("the store does not implement store.Releaser")
	}
	ns := s.ns(t)
	first, err := s.store.Reserve(bg, ns, 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Release(bg, ns, first+3, first+10); err != nil {
		t.Fatal(err)
	}
	if next, err := s.store.Reserve(bg, ns, 1); err != nil || next != first+3 {
		t.Fatalf("reserve after releasing from %d: %d, %v", first+3, next, err)
	}
	// Another reservation came after this block: releasing it does nothing.
	older, _ := s.store.Reserve(bg, ns, 5)
	newer, _ := s.store.Reserve(bg, ns, 5)
	if err := r.Release(bg, ns, older+1, older+5); err != nil {
		t.Fatal(err)
	}
	if next, err := s.store.Reserve(bg, ns, 1); err != nil || next < newer+5 {
		t.Fatalf("reserve after releasing an older block: %d, %v; numbers from %d on were taken", next, err, older+1)
	}
	if err := r.Release(bg, ns, 5, 4); !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("Release(5, 4): err = %v, want ErrInvalidInput", err)
	}
}

// namespaces checks that namespaces differing in one field, or only in
// how their fields split one string, share nothing.
func (s *suite) namespaces(t *testing.T) {
	base := s.ns(t)
	nss := []engram.Namespace{
		base,
		{User: base.User, Agent: base.Agent, Session: base.Session + "x"},
		{User: base.User, Agent: base.Agent + "x", Session: base.Session},
		{User: base.User + "x", Agent: base.Agent, Session: base.Session},
		{User: base.User, Agent: base.Agent + "/", Session: "x"},
		{User: base.User, Agent: base.Agent, Session: "/x"},
		{User: base.User + "\x01", Agent: base.Agent, Session: ""},
	}
	r := rand.New(rand.NewPCG(8, 1))
	q := rec(r, 0, 0, 0, 8).Embedding
	for i, ns := range nss {
		var ops []store.Op
		for seq := range 5 { // the same sequence numbers and vectors in every namespace
			x := rec(r, int64(seq), store.RouteCore, float64(i), 8)
			x.Embedding, x.Data = q, fmt.Appendf(nil, "ns %d", i)
			ops = append(ops, store.Put(x))
		}
		commit(t, s.store, ns, append(ops, store.Term("t", int64(i+1)), store.State(fmt.Appendf(nil, "%d", i)))...)
	}
	// Evicting, deleting and clearing in one namespace leave the others alone.
	commit(t, s.store, nss[0], store.Evict(2), store.Delete(0))
	commit(t, s.store, nss[1], store.Clear())
	for i, ns := range nss {
		wantUnits, wantLog := 5, 0
		switch i {
		case 0:
			wantUnits, wantLog = 2, 3
		case 1:
			wantUnits = 0
		}
		check := func(what string, r store.Record) {
			if string(r.Data) != fmt.Sprintf("ns %d", i) {
				t.Fatalf("%s of namespace %d returned %q", what, i, r.Data)
			}
		}
		units := scanAll(t, s.store, ns, false)
		log := scanAll(t, s.store, ns, true)
		if len(units) != wantUnits || len(log) != wantLog {
			t.Fatalf("namespace %d holds %d records and %d logged; want %d and %d", i, len(units), len(log), wantUnits, wantLog)
		}
		for _, u := range append(units, log...) {
			check("scan", u)
		}
		hits, err := s.store.Query(bg, ns, q, 100)
		if err != nil || len(hits) != wantUnits {
			t.Fatalf("namespace %d: query returned %d hits, %v", i, len(hits), err)
		}
		for _, h := range hits {
			check("query", h.Record)
		}
		if g, err := s.store.Get(bg, ns, 4); err == nil {
			check("get", g)
		}
		snap, err := s.store.Load(bg, ns)
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			if len(snap.State) != 0 || len(snap.Terms) != 0 {
				t.Fatalf("cleared namespace holds %q %v", snap.State, snap.Terms)
			}
		} else if string(snap.State) != fmt.Sprint(i) || snap.Terms["t"] != int64(i+1) || len(snap.Terms) != 1 {
			t.Fatalf("namespace %d: state %q terms %v", i, snap.State, snap.Terms)
		}
	}
}

// concurrent runs writers and readers on one namespace; every write is there.
func (s *suite) concurrent(t *testing.T) {
	ns := s.ns(t)
	var wg sync.WaitGroup
	const writers, commits, per = 4, 15, 3
	for w := range writers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(9, uint64(w)))
			for range commits {
				first, err := s.store.Reserve(bg, ns, per)
				if err != nil {
					t.Error(err)
					return
				}
				var ops []store.Op
				for k := range int64(per) {
					x := rec(r, first+k, store.RouteCore, r.NormFloat64(), 8)
					x.Data = fmt.Appendf(nil, "writer %d", w)
					ops = append(ops, store.Put(x), store.Term("w", 1))
				}
				if err := s.store.Commit(bg, ns, ops); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for range 2 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(10, 0))
			for range 20 {
				if _, err := s.store.Query(bg, ns, rec(r, 0, 0, 0, 8).Embedding, 5); err != nil {
					t.Error(err)
					return
				}
				if err := s.store.Scan(bg, ns, false, func(store.Record) error { return nil }); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	units := scanAll(t, s.store, ns, false)
	snap, err := s.store.Load(bg, ns)
	if err != nil || len(units) != writers*commits*per || snap.Terms["w"] != writers*commits*per {
		t.Fatalf("%d records and term count %d after %d concurrent puts (%v)", len(units), snap.Terms["w"], writers*commits*per, err)
	}
}

// tenants is the isolation property: 100 tenants, two goroutines each,
// thousands of random operations; whatever a read returns was written by
// its own tenant, and each tenant's final record matches what it did.
func (s *suite) tenants(t *testing.T) {
	const tenants, perGoroutine = 100, 20
	start := time.Now()
	var wg sync.WaitGroup
	var opsDone sync.Map
	for ten := range tenants {
		ns := s.ns(t, fmt.Sprint(ten))
		tag := fmt.Sprintf("tenant %d|", ten)
		for g := range 2 {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(ten), uint64(g)))
				check := func(what string, rs ...store.Record) bool {
					for _, x := range rs {
						if !strings.HasPrefix(string(x.Data), tag) {
							t.Errorf("%s for tenant %d returned %q", what, ten, x.Data)
							return false
						}
					}
					return true
				}
				n := 0
				for range perGoroutine {
					var err error
					switch op := r.IntN(10); {
					case op < 4:
						var first int64
						k := 1 + r.IntN(3)
						if first, err = s.store.Reserve(bg, ns, k); err != nil {
							break
						}
						var ops []store.Op
						for i := range int64(k) {
							x := rec(r, first+i, store.Route(1+r.IntN(2)), r.NormFloat64(), 8)
							// Every tenant writes the same kinds of vectors: a leak would be found.
							x.Embedding = []float32{1, float32(i), 0, 0, 0, 0, 0, float32(r.IntN(2))}
							x.Data = fmt.Appendf(nil, "%s%d", tag, first+i)
							ops = append(ops, store.Put(x), store.Term("shared", 1))
						}
						err = s.store.Commit(bg, ns, ops)
					case op < 5:
						err = s.store.Commit(bg, ns, []store.Op{store.Priority(int64(r.IntN(40)), 0, 2, 0, 0), store.Evict(5 + r.IntN(10))})
					case op < 6:
						err = s.store.Commit(bg, ns, []store.Op{store.Delete(int64(r.IntN(40)))})
					case op < 8:
						var hits []store.Hit
						if hits, err = s.store.Query(bg, ns, []float32{1, 0, 0, 0, 0, 0, 0, 1}, 20); err == nil {
							for _, h := range hits {
								check("query", h.Record)
							}
						}
					case op < 9:
						var x store.Record
						if x, err = s.store.Get(bg, ns, int64(r.IntN(40))); err == nil {
							check("get", x)
						} else if errors.Is(err, engram.ErrNotFound) {
							err = nil
						}
					default:
						err = s.store.Scan(bg, ns, r.IntN(2) == 0, func(x store.Record) error { check("scan", x); return nil })
					}
					if err != nil {
						t.Error(err)
						return
					}
					n++
				}
				opsDone.Store([2]int{ten, g}, n)
			})
		}
	}
	wg.Wait()
	total := 0
	opsDone.Range(func(_, v any) bool { total += v.(int); return true })
	// Every tenant's terms count exactly its own puts, and its records are its own.
	for ten := range tenants {
		ns := s.ns(t, fmt.Sprint(ten))
		for _, log := range []bool{false, true} {
			for _, x := range scanAll(t, s.store, ns, log) {
				if !strings.HasPrefix(string(x.Data), fmt.Sprintf("tenant %d|", ten)) {
					t.Fatalf("tenant %d holds %q", ten, x.Data)
				}
			}
		}
	}
	t.Logf("%d tenants × 2 goroutines: %d operations in %v, no record crossed a tenant", tenants, total, time.Since(start).Round(time.Millisecond))
}

// memories runs D-MEM memories of many namespaces over the store, writing
// the same facts but for one tag; no memory ever returns another's.
func (s *suite) memories(t *testing.T) {
	const tenants = 12
	var wg sync.WaitGroup
	for ten := range tenants {
		wg.Go(func() {
			ns := s.ns(t, fmt.Sprint(ten))
			m, err := dmem.New(bg, dmem.WithStore(s.store), dmem.WithNamespace(ns.User, ns.Agent, ns.Session),
				option.WithMaxUnits(12), dmem.WithShortTerm(4), option.WithTokenBudget(400))
			if err != nil {
				t.Error(err)
				return
			}
			defer m.Close()
			tag := fmt.Sprintf("tenant%03d", ten)
			var inner sync.WaitGroup
			for g := range 2 {
				inner.Go(func() {
					for i := range 10 {
						in := fmt.Sprintf("Note %s: Priya moved to Lisbon in %d and pays %d for rent (%d).", tag, 2000+i, 900+i, g)
						if err := m.SaveContext(bg, map[string]any{"input": in}, map[string]any{"output": "Noted for " + tag}); err != nil {
							t.Error(err)
							return
						}
						if i%3 == 0 {
							if err := m.Reward(bg, float64(i%2*2-1)); err != nil {
								t.Error(err)
								return
							}
						}
						v, err := m.LoadMemoryVariables(bg, map[string]any{"input": "Where did Priya move and what rent?"})
						if err != nil {
							t.Error(err)
							return
						}
						for _, l := range strings.Split(v["history"].(string), "\n") {
							if l != "" && !strings.Contains(l, tag) {
								t.Errorf("memory of %s returned %q", tag, l)
							}
						}
						docs, err := m.SimilaritySearch(bg, "Priya rent Lisbon", 5)
						if err != nil {
							t.Error(err)
							return
						}
						for _, d := range docs {
							if !strings.Contains(d.PageContent, tag) {
								t.Errorf("search of %s returned %q", tag, d.PageContent)
							}
						}
					}
				})
			}
			inner.Wait()
			if st := m.Stats(); st.Steps != 40 || st.Core > 12 {
				t.Errorf("%s: stats %+v; want 40 steps of its own, core ≤ 12", tag, st)
			}
		})
	}
	wg.Wait()
	// Reopened, each memory holds its own units and learned state only.
	for ten := range tenants {
		ns := s.ns(t, fmt.Sprint(ten))
		m, err := dmem.New(bg, dmem.WithStore(s.store), dmem.WithNamespace(ns.User, ns.Agent, ns.Session), option.WithMaxUnits(12), dmem.WithShortTerm(4))
		if err != nil {
			t.Fatal(err)
		}
		tag := fmt.Sprintf("tenant%03d", ten)
		for _, r := range []dmem.Route{dmem.RouteCore, dmem.RouteShort} {
			for _, u := range m.UnitsIn(r) {
				if !strings.Contains(u.Text, tag) {
					t.Fatalf("reopened memory of %s holds %q", tag, u.Text)
				}
			}
		}
		if st := m.Stats(); st.Steps != 40 {
			t.Fatalf("reopened %s: %d steps, want 40", tag, st.Steps)
		}
		m.Close()
	}
}

// facts: the facts a memory's units state come back with them when a
// memory of the namespace opens again, and so does which unit supersedes
// which.
func (s *suite) facts(t *testing.T) {
	ns := s.ns(t)
	said := map[string][]engram.Fact{
		"Omar: I live in Lisbon.":             {{Subject: "Omar", Relation: "home city", Value: "Lisbon"}},
		"Omar: we moved to Edinburgh.":        {{Subject: "Omar", Relation: "home city", Value: "Edinburgh"}},
		"Omar: my sister Leah lives in Oslo.": {{Subject: "Leah", Relation: "home city", Value: "Oslo"}, {Subject: "Omar", Relation: "sister", Value: "Leah"}},
	}
	ex := func(_ context.Context, u engram.Unit, _ []engram.Fact) ([]engram.Fact, error) {
		return said[u.Text], nil
	}
	open := func(opts ...dmem.Option) *dmem.Memory {
		m, err := dmem.New(bg, append(opts, dmem.WithStore(s.store), dmem.WithNamespace(ns.User, ns.Agent, ns.Session))...)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := open(option.WithFacts(ex))
	for _, in := range []string{"Omar: I live in Lisbon.", "Omar: my sister Leah lives in Oslo.", "Omar: we moved to Edinburgh."} {
		if err := m.SaveContext(bg, map[string]any{"input": in}, map[string]any{"output": "Noted."}); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	m = open() // no extractor: the facts are the store's
	defer m.Close()
	ids := map[string]string{}
	for _, r := range []dmem.Route{dmem.RouteCore, dmem.RouteShort} {
		for _, u := range m.UnitsIn(r) {
			ids[u.Text] = u.ID
			if want := said[u.Text]; !slices.Equal(u.Facts, want) {
				t.Errorf("reopened %s %q states %v, want %v", u.ID, u.Text, u.Facts, want)
			}
		}
	}
	old, now := ids["Omar: I live in Lisbon."], ids["Omar: we moved to Edinburgh."]
	if old == "" || now == "" {
		t.Fatalf("reopened memory lost a statement: %v", ids)
	}
	if x, err := m.ExplainUnit(old); err != nil || x.SupersededBy != now {
		t.Errorf("reopened: %s superseded by %q (%v), want %s", old, x.SupersededBy, err, now)
	}
}

func (s *suite) clear(t *testing.T) {
	ns, r := s.ns(t), rand.New(rand.NewPCG(11, 1))
	first, err := s.store.Reserve(bg, ns, 3)
	if err != nil {
		t.Fatal(err)
	}
	commit(t, s.store, ns, store.Put(rec(r, first, store.RouteCore, 0, 8)), store.Log(rec(r, first+1, store.RouteNowhere, 0, 8)),
		store.Term("a", 1), store.State([]byte("s")))
	commit(t, s.store, ns, store.Clear(), store.Put(rec(r, first+2, store.RouteCore, 0, 8)))
	units, log := scanAll(t, s.store, ns, false), scanAll(t, s.store, ns, true)
	snap, _ := s.store.Load(bg, ns)
	if len(units) != 1 || units[0].Seq != first+2 || len(log) != 0 || len(snap.Terms) != 0 || snap.State != nil {
		t.Fatalf("after clear and put: units %v log %v snapshot %+v", seqs(units), seqs(log), snap)
	}
	if next, err := s.store.Reserve(bg, ns, 1); err != nil || next < first+3 {
		t.Fatalf("after clear, reserve returned %d (%v); %d..%d were taken before", next, err, first, first+2)
	}
}

func (s *suite) reopen(t *testing.T) {
	ns, r := s.ns(t), rand.New(rand.NewPCG(12, 1))
	first, err := s.store.Reserve(bg, ns, 10)
	if err != nil {
		t.Fatal(err)
	}
	var ops []store.Op
	var core []store.Record
	for i := range int64(10) {
		x := rec(r, first+i, store.RouteCore, float64(i), 8)
		core = append(core, x)
		ops = append(ops, store.Put(x))
	}
	commit(t, s.store, ns, append(ops, store.Priority(first, 0, 4, 0, 0), store.Evict(8), store.Term("x", 2), store.State([]byte("st")))...)
	core[0].LogP += 2
	if err := s.store.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.store.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
	closed := []error{
		s.store.Commit(bg, ns, []store.Op{store.Term("x", 1)}),
		s.store.Scan(bg, ns, false, func(store.Record) error { return nil }),
	}
	_, err = s.store.Get(bg, ns, first)
	closed = append(closed, err)
	_, err = s.store.Query(bg, ns, core[0].Embedding, 1)
	closed = append(closed, err)
	_, err = s.store.Reserve(bg, ns, 1)
	closed = append(closed, err)
	_, err = s.store.Load(bg, ns)
	closed = append(closed, err)
	for i, err := range closed {
		if !errors.Is(err, engram.ErrClosed) {
			t.Errorf("call %d after close: err = %v, want ErrClosed", i, err)
		}
	}

	s.store = s.open(t)
	units := scanAll(t, s.store, ns, false)
	if len(units) != 8 || len(scanAll(t, s.store, ns, true)) != 2 {
		t.Fatalf("reopened: %d records (want 8), %v logged", len(units), seqs(scanAll(t, s.store, ns, true)))
	}
	want := map[int64]store.Record{}
	for _, c := range core {
		want[c.Seq] = c
	}
	for _, u := range units {
		if !equal(u, want[u.Seq]) {
			t.Fatalf("reopened record %+v, committed %+v", u, want[u.Seq])
		}
	}
	hits, err := s.store.Query(bg, ns, core[9].Embedding, 1)
	if err != nil || len(hits) != 1 || hits[0].Seq != core[9].Seq {
		t.Fatalf("query after reopen: %v, %v", hits, err)
	}
	if snap, err := s.store.Load(bg, ns); err != nil || snap.Terms["x"] != 2 || string(snap.State) != "st" {
		t.Fatalf("reopened snapshot %+v, %v", snap, err)
	}
	if next, err := s.store.Reserve(bg, ns, 1); err != nil || next < first+10 {
		t.Fatalf("reopened: reserve returned %d (%v); %d..%d were taken", next, err, first, first+9)
	}
}

// priorityExtremes: a priority change on a unit whose priority decayed far
// below the floor, or one that would overflow, lands where NewLogP says.
func (s *suite) priorityExtremes(t *testing.T) {
	ns, r := s.ns(t), rand.New(rand.NewPCG(3, 7))
	commit(t, s.store, ns, store.Put(rec(r, 1, store.RouteCore, 0, 8)))
	want := 0.0
	for _, st := range []struct{ at, mul, add, min float64 }{
		{1100, 2, 1, 0}, // 2^-1100 underflows: the add decides
		{1100, 1e300, 0, 0},
		{1100, 1e300, 0, 0}, // capped, not overflowing
		{5000, 1, 0, 0},
	} {
		commit(t, s.store, ns, store.Priority(1, st.at, st.mul, st.add, st.min))
		want = store.NewLogP(want, st.at, st.mul, st.add, st.min)
		got, err := s.store.Get(bg, ns, 1)
		if err != nil || math.Abs(got.LogP-want) > 1e-6 {
			t.Fatalf("after %+v: LogP %v, %v; want %v", st, got.LogP, err, want)
		}
	}
}

// invalidOps: a commit holding an op no store may apply (Op.Check) is
// refused whole, with ErrInvalidInput, and changes nothing.
func (s *suite) invalidOps(t *testing.T) {
	ns, r := s.ns(t), rand.New(rand.NewPCG(3, 8))
	good := rec(r, 1, store.RouteCore, 0, 8)
	nanVec := rec(r, 2, store.RouteCore, 0, 8)
	nanVec.Embedding[3] = float32(math.NaN())
	nanStat := rec(r, 3, store.RouteCore, math.Inf(1), 8)
	for name, bad := range map[string]store.Op{
		"NaN embedding":   store.Put(nanVec),
		"infinite LogP":   store.Put(nanStat),
		"NaN multiplier":  store.Priority(1, 0, math.NaN(), 0, 0),
		"term with a NUL": store.Term("a\x00b", 1),
		"invalid UTF-8":   store.Term("a\xffb", 1),
		"unknown kind":    {Kind: 200},
	} {
		if err := s.store.Commit(bg, ns, []store.Op{store.Put(good), bad}); !errors.Is(err, engram.ErrInvalidInput) {
			t.Errorf("%s: Commit = %v, want ErrInvalidInput", name, err)
		}
	}
	if _, err := s.store.Get(bg, ns, 1); !errors.Is(err, engram.ErrNotFound) {
		t.Errorf("a refused commit stored its valid op: %v", err)
	}
	q := make([]float32, 8)
	q[0] = float32(math.NaN())
	if _, err := s.store.Query(bg, ns, q, 3); !errors.Is(err, engram.ErrInvalidInput) {
		t.Errorf("Query with a NaN vector = %v, want ErrInvalidInput", err)
	}
}
