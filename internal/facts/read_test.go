package facts

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/engram-go/engram"
)

// TestReadAnswersAsInOrder checks that Read gives the units of one turn
// the facts a call per unit in order gives, each told the same known
// slots, and that a turn is told what earlier turns carried in.
func TestReadAnswersAsInOrder(t *testing.T) {
	// The extractor states "<subject> | city | <value>" for "<subject> lives
	// in <value>", naming the subject as a known slot does if one matches
	// case-insensitively, and records what each unit was told.
	var mu sync.Mutex
	toldOf := map[string][]engram.Fact{}
	ex := func(_ context.Context, u engram.Unit, known []engram.Fact) ([]engram.Fact, error) {
		mu.Lock()
		toldOf[u.Text] = known
		mu.Unlock()
		subj, val, ok := strings.Cut(u.Text, " lives in ")
		if !ok {
			return nil, nil
		}
		for _, k := range known {
			if strings.EqualFold(k.Subject, subj) {
				subj = k.Subject
			}
		}
		return []engram.Fact{{Subject: subj, Relation: "city", Value: val}}, nil
	}
	leah := engram.Fact{Subject: "Leah", Relation: "job", Value: "nurse"}
	us := []engram.Unit{
		{Role: engram.RoleHuman, Text: "Omar lives in Lisbon"},
		{Role: engram.RoleAI, Text: "carried", Facts: []engram.Fact{leah}},
		{Role: engram.RoleAI, Text: "OMAR lives in Porto"},
		{Role: engram.RoleHuman, Text: "nothing here"},
	}
	read := []bool{true, false, true, true}
	known := []engram.Fact{{Subject: "Ann", Relation: "city", Value: "Rome"}}
	fs, errs := Read(context.Background(), ex, us, read, known)

	// The first turn, one call at a time.
	k := known
	for i, u := range us[:3] {
		if errs[i] != nil {
			t.Fatalf("unit %d: %v", i, errs[i])
		}
		want := u.Facts
		if read[i] {
			mu.Lock()
			told := toldOf[u.Text]
			mu.Unlock()
			if !slices.Equal(told, k) {
				t.Errorf("unit %d was told %v, want %v", i, told, k)
			}
			want, _ = ex(context.Background(), u, k)
			want = Clean(want)
		}
		if !slices.Equal(fs[i], want) {
			t.Errorf("unit %d: facts %v, want %v", i, fs[i], want)
		}
		k = Stated(fs[i], k)
	}
	if fs[2][0].Subject != "Omar" {
		t.Errorf("the reply named its subject %q, not as its question did", fs[2][0].Subject)
	}
	// The next turn is told what the first carried in.
	mu.Lock()
	told := toldOf["nothing here"]
	mu.Unlock()
	if want := Stated([]engram.Fact{leah}, known); !slices.Equal(told, want) {
		t.Errorf("the second turn was told %v, want %v", told, want)
	}
}

// TestReadConcurrently checks that the turns of one save are read at once,
// at most ReadLimit at a time, and that a failure costs its unit alone.
func TestReadConcurrently(t *testing.T) {
	var running, most atomic.Int32
	ex := func(_ context.Context, u engram.Unit, _ []engram.Fact) ([]engram.Fact, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(20 * time.Millisecond)
		if u.Text == "unit 3" {
			return nil, errors.New("boom")
		}
		return nil, nil
	}
	us := make([]engram.Unit, 3*ReadLimit)
	read := make([]bool, len(us))
	for i := range us {
		us[i].Text, read[i] = fmt.Sprintf("unit %d", i), true // each a human turn
	}
	start := time.Now()
	_, errs := Read(context.Background(), ex, us, read, nil)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("reading %d units took %v", len(us), d)
	}
	if m := most.Load(); m < 2 || m > ReadLimit {
		t.Errorf("%d calls ran at once, want 2 to %d", m, ReadLimit)
	}
	for i, err := range errs {
		if (err != nil) != (i == 3) {
			t.Errorf("unit %d: error %v", i, err)
		}
	}
}

// TestCleanBoundsItsWork checks that an extractor returning a million
// facts costs a unit no more than MaxPerUnit of them.
func TestCleanBoundsItsWork(t *testing.T) {
	fs := make([]engram.Fact, 1_000_000)
	for i := range fs {
		fs[i] = engram.Fact{Subject: "Omar", Relation: "home city", Value: "Lisbon"}
	}
	fs[len(fs)-1].Value = "Porto"
	start := time.Now()
	out := Clean(fs)
	if len(out) != 1 || out[0].Value != "Porto" {
		t.Errorf("Clean kept %v, want the last statement", out)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("Clean took %v", d)
	}
}
