package pgstore_test

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/option"
	"github.com/tmc/langchaingo/schema"
)

const (
	hammerEnv  = "PGSTORE_HAMMER"  // the namespace's user, in the child
	counterEnv = "PGSTORE_COUNTER" // the shared counter record's seq
	hammerCap  = 150
)

var bg = context.Background()

// hammer writes to the namespace through a dmem.Memory until the deadline:
// documents (acknowledged on out once committed), rewards, loads, and an
// increment of the shared counter record's priority. It returns how many
// increments it made.
func hammer(t testing.TB, s store.Store, user string, proc int, counter int64, d time.Duration, out func(id, text string)) int {
	m, err := dmem.New(bg, dmem.WithStore(s), dmem.WithNamespace(user, "hammer", ""),
		option.WithMaxUnits(hammerCap), dmem.WithDepartedUnits(1<<20), dmem.WithShortTerm(8))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r := rand.New(rand.NewPCG(uint64(proc), 9))
	adds := 0
	for k, end := 0, time.Now().Add(d); time.Now().Before(end); k++ {
		docs := make([]schema.Document, 1+r.IntN(3))
		for i := range docs {
			docs[i].PageContent = fmt.Sprintf("process %d item %d.%d: order %d shipped to %s", proc, k, i, r.IntN(100000), []string{"Lisbon", "Kyoto", "Denver"}[r.IntN(3)])
		}
		ids, err := m.AddDocuments(bg, docs)
		if err != nil {
			t.Fatal(err)
		}
		for i, id := range ids {
			out(id, docs[i].PageContent)
		}
		switch k % 4 {
		case 1:
			if err := m.Reward(bg, r.NormFloat64()); err != nil {
				t.Fatal(err)
			}
		case 2:
			if _, err := m.LoadMemoryVariables(bg, map[string]any{"input": "which order shipped to Kyoto?"}); err != nil {
				t.Fatal(err)
			}
		case 3:
			if err := s.Commit(bg, engram.Namespace{User: user, Agent: "hammer"}, []store.Op{store.Priority(counter, 0, 1, 1, 0)}); err != nil {
				t.Fatal(err)
			}
			adds++
		}
	}
	return adds
}

// TestHammerChild is the second process of TestTwoProcesses.
func TestHammerChild(t *testing.T) {
	user := os.Getenv(hammerEnv)
	if user == "" {
		t.Skip("child process of TestTwoProcesses")
	}
	counter, _ := strconv.ParseInt(os.Getenv(counterEnv), 10, 64)
	s := open(t, dmemExact()...)
	defer s.Close()
	w := bufio.NewWriter(os.Stdout)
	adds := hammer(t, s, user, 1, counter, 3*time.Second, func(id, text string) { fmt.Fprintf(w, "ack %s %q\n", id, text) })
	fmt.Fprintf(w, "adds %d\n", adds)
	w.Flush()
}

// Two OS processes write to one namespace for three seconds, evicting each
// other's units at a shared capacity: every acknowledged unit is stored or
// in the eviction log, exactly once, under its own id; nothing else is;
// core memory is within capacity; and every priority increment counted.
func TestTwoProcesses(t *testing.T) {
	s := open(t, dmemExact()...)
	defer s.Close()
	user := fmt.Sprintf("two-processes-%x", rand.Uint64())
	ns := engram.Namespace{User: user, Agent: "hammer"}
	counter, err := s.Reserve(bg, ns, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(bg, ns, []store.Op{store.Put(store.Record{Seq: counter, Route: store.RouteShort, Data: []byte("counter")})}); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestHammerChild$", "-test.v")
	cmd.Env = append(os.Environ(), hammerEnv+"="+user, counterEnv+"="+strconv.FormatInt(counter, 10))
	var childOut strings.Builder
	cmd.Stdout, cmd.Stderr = &childOut, &childOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := map[string]string{}
	dup := func(id, text string) {
		if old, ok := acked[id]; ok {
			t.Errorf("id %s acknowledged twice: %q and %q", id, old, text)
		}
		acked[id] = text
	}
	adds := hammer(t, s, user, 0, counter, 3*time.Second, dup)
	mine := len(acked)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v\n%s", err, childOut.String())
	}
	for _, l := range strings.Split(childOut.String(), "\n") {
		f := strings.SplitN(l, " ", 3)
		switch {
		case len(f) == 3 && f[0] == "ack":
			text, err := strconv.Unquote(f[2])
			if err != nil {
				t.Fatalf("child said %q", l)
			}
			dup(f[1], text)
		case len(f) == 2 && f[0] == "adds":
			n, _ := strconv.Atoi(f[1])
			adds += n
		}
	}
	if mine == 0 || len(acked) == mine {
		t.Fatalf("parent acknowledged %d units, child %d: both must write", mine, len(acked)-mine)
	}

	units, log := map[int64]store.Record{}, map[int64]store.Record{}
	for _, set := range []struct {
		log bool
		m   map[int64]store.Record
	}{{false, units}, {true, log}} {
		if err := s.Scan(bg, ns, set.log, func(r store.Record) error { set.m[r.Seq] = r; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	core := 0
	for seq, r := range units {
		if _, ok := log[seq]; ok {
			t.Errorf("unit %d both stored and in the eviction log", seq)
		}
		if r.Route == store.RouteCore {
			core++
		}
	}
	if core > hammerCap {
		t.Errorf("%d core units, capacity %d", core, hammerCap)
	}
	if n := len(units) + len(log); n != len(acked)+1 {
		t.Errorf("%d stored + %d logged records; want the %d acknowledged and the counter", len(units), len(log), len(acked))
	}
	// A fresh memory of the namespace accounts for every acknowledged unit.
	m, err := dmem.New(bg, dmem.WithStore(s), dmem.WithNamespace(user, "hammer", ""), option.WithMaxUnits(hammerCap), dmem.WithDepartedUnits(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for id, text := range acked {
		x, err := m.ExplainUnit(id)
		if err != nil || x.Text != text {
			t.Fatalf("acknowledged %s %q: explained as %q, %v", id, text, x.Text, err)
		}
	}
	c, err := s.Get(bg, ns, counter)
	if err != nil || math.Abs(math.Exp2(c.LogP)-float64(1+adds)) > 1e-6*float64(adds) {
		t.Errorf("counter priority %v after %d increments of 1, want %d (%v)", math.Exp2(c.LogP), adds, 1+adds, err)
	}
	t.Logf("parent %d units, child %d; %d stored (%d core, capacity %d), %d evicted; %d priority increments, none lost",
		mine, len(acked)-mine, len(units)-1, core, hammerCap, len(log), adds)
}
