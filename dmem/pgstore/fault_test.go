package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/dmem/pgstore"
	"github.com/engram-go/engram/dmem/store"
	"github.com/jackc/pgx/v5"
)

// openApp opens a store whose connections carry application name app, so
// that a test can terminate its backends and no one else's.
func openApp(t *testing.T, app string) *pgstore.Store {
	t.Helper()
	dsn := os.Getenv(dsnEnv)
	if dsn == "" {
		open(t) // skips, or fails under CI
	}
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme == "" {
		t.Skipf("%s is not a URL", dsnEnv)
	}
	q := u.Query()
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	s, err := pgstore.Open(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// terminate ends every backend of application app, as a server restart or
// a dropped connection would, and returns how many it ended.
func terminate(t *testing.T, app string) int {
	t.Helper()
	n, err := terminated(app)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func terminated(app string) (int, error) {
	conn, err := pgx.Connect(context.Background(), os.Getenv(dsnEnv))
	if err != nil {
		return 0, err
	}
	defer conn.Close(context.Background())
	var n int
	err = conn.QueryRow(context.Background(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()`, app).Scan(&n)
	return n, err
}

// A dropped connection costs at most the writes in flight, never the
// memory: with the store's backends terminated twice mid-run, every save
// succeeds or fails with dmem.ErrStore, the saves after each fault
// succeed, and every acknowledged save is there when the memory reopens.
func TestBackendsTerminated(t *testing.T) {
	app := fmt.Sprintf("engram_fault_%d", time.Now().UnixNano())
	s := openApp(t, app)
	ns := engram.Namespace{User: app}
	m, err := dmem.New(context.Background(), dmem.WithStore(s), dmem.WithNamespace(ns.User, "", ""), dmem.WithShortTerm(2000))
	if err != nil {
		t.Fatal(err)
	}
	acked := make(map[string]bool)
	failed := 0
	for i := range 60 {
		if i == 15 || i == 40 {
			if n := terminate(t, app); n == 0 {
				t.Fatalf("no backend of %s to terminate", app)
			}
		}
		in := fmt.Sprintf("Fact %d: the locker code of desk %d is %d.", i, i, 7000+i)
		err := m.SaveContext(context.Background(), map[string]any{"input": in}, map[string]any{"output": "Noted."})
		switch {
		case err == nil:
			acked[in] = true
		case errors.Is(err, dmem.ErrStore):
			failed++
			if i >= 20 && i < 40 || i >= 45 {
				t.Fatalf("save %d, well after the fault: %v", i, err)
			}
		default:
			t.Fatalf("save %d: %v", i, err)
		}
	}
	// A longer fault: the backends terminated again and again for a while.
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
				terminated(app) // fails too, now and then: the server is busy ending backends
			}
		}
	}()
	deadline := time.Now().Add(1500 * time.Millisecond)
	for i := 60; time.Now().Before(deadline); i++ {
		in := fmt.Sprintf("Fact %d: the locker code of desk %d is %d.", i, i, 7000+i)
		err := m.SaveContext(context.Background(), map[string]any{"input": in}, map[string]any{"output": "Noted."})
		switch {
		case err == nil:
			acked[in] = true
		case errors.Is(err, dmem.ErrStore):
			failed++
		default:
			t.Fatalf("save %d during the fault: %v", i, err)
		}
	}
	close(stop)
	<-done
	for i := range 10 {
		in := fmt.Sprintf("After the fault, fact %d: desk %d is by the window.", i, i)
		if err := m.SaveContext(context.Background(), map[string]any{"input": in}, map[string]any{"output": "Noted."}); err != nil {
			t.Fatalf("save %d after the fault cleared: %v", i, err)
		}
		acked[in] = true
	}
	t.Logf("%d saves acknowledged, %d failed with ErrStore", len(acked), failed)
	if err := m.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	m2, err := dmem.New(context.Background(), dmem.WithStore(s), dmem.WithNamespace(ns.User, "", ""), dmem.WithShortTerm(2000))
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	have := make(map[string]bool)
	for _, r := range [...]dmem.Route{dmem.RouteCore, dmem.RouteShort} {
		for _, u := range m2.UnitsIn(r) {
			have[u.Text] = true
		}
	}
	for in := range acked {
		if !have[in] {
			t.Errorf("acknowledged save %q is missing", in)
		}
	}
}

// A namespace over MaxNamespaceBytes fails with a short typed error, not
// PostgreSQL's, which repeats the whole key; one at the limit works.
func TestNamespaceTooLong(t *testing.T) {
	s := open(t)
	defer s.Close()
	ctx := context.Background()
	long := engram.Namespace{User: strings.Repeat("u", 2000), Agent: strings.Repeat("a", 100)}
	err := s.Commit(ctx, long, []store.Op{store.Term("x", 1)})
	if !errors.Is(err, pgstore.ErrNamespaceTooLong) || !errors.Is(err, engram.ErrInvalidInput) || len(err.Error()) > 300 {
		t.Fatalf("commit to a %d-byte namespace: %v", len(long.User)+len(long.Agent), err)
	}
	if _, err := s.Reserve(ctx, long, 1); !errors.Is(err, pgstore.ErrNamespaceTooLong) {
		t.Fatalf("reserve: %v", err)
	}
	// Random text does not compress: the limit must hold for it too.
	var b strings.Builder
	for i := 0; b.Len() < pgstore.MaxNamespaceBytes; i++ {
		fmt.Fprintf(&b, "%x", uint64(i)*0x9E3779B97F4A7C15)
	}
	ok := engram.Namespace{User: b.String()[:pgstore.MaxNamespaceBytes-10], Session: fmt.Sprint(time.Now().UnixNano() % 1e9)}
	ok.Session = (ok.Session + "0000000000")[:10]
	if err := s.Commit(ctx, ok, []store.Op{store.Term("x", 1)}); err != nil {
		t.Fatalf("commit to a namespace at the limit: %v", err)
	}
	if err := s.Commit(ctx, ok, []store.Op{store.Clear()}); err != nil {
		t.Fatal(err)
	}
}
