package dmem

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/engram-go/engram/dmem/boltstore"
	"github.com/engram-go/engram/option"
)

// oddEmbedder gives each text a small hashed vector; texts holding "NAN",
// "INF" or "ZERO" get such a vector, and dim can change between calls.
type oddEmbedder struct {
	mu  sync.Mutex
	dim int
}

func (e *oddEmbedder) vec(s string) []float32 {
	e.mu.Lock()
	d := e.dim
	e.mu.Unlock()
	v := make([]float32, d)
	for _, w := range strings.Fields(strings.ToLower(s)) {
		h := fnv.New32a()
		h.Write([]byte(w))
		v[int(h.Sum32())%d] += 1
	}
	switch {
	case strings.Contains(s, "NAN"):
		v[0] = float32(math.NaN())
	case strings.Contains(s, "INF"):
		v[0] = float32(math.Inf(1))
	case strings.Contains(s, "ZERO"):
		clear(v)
	}
	return v
}

func (e *oddEmbedder) EmbedDocuments(_ context.Context, ts []string) ([][]float32, error) {
	out := make([][]float32, len(ts))
	for i, s := range ts {
		out[i] = e.vec(s)
	}
	return out, nil
}

func (e *oddEmbedder) EmbedQuery(_ context.Context, s string) ([]float32, error) {
	return e.vec(s), nil
}

func fillTopics(t *testing.T, m *Memory, n int) {
	t.Helper()
	for i := range n {
		save(t, m, fmt.Sprintf("Turn %d about the garden, tomato %d and the %d bus.", i, i%17, i%5), fmt.Sprintf("Reply %d, noted.", i))
	}
}

// WithCandidates accepts any n ≥ 0; a load that gathers computes 4·n and
// 2·k from it, which overflow.
func TestHugeCandidatesGathered(t *testing.T) {
	m := newMemory(t, WithCandidates(1<<46))
	m.words.rows.Above = 50
	fillTopics(t, m, 60)
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("load panicked: %v\n%s", r, debug.Stack())
		}
	}()
	load(t, m, "What about tomato 3?")
}

// A memory with a store gathers at every size now; its k is n itself.
func TestHugeCandidatesStore(t *testing.T) {
	bs, err := boltstore.Open(bg, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer bs.Close()
	m := newMemory(t, WithStore(bs), WithCandidates(1<<46))
	fillTopics(t, m, 5)
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("load panicked: %v\n%s", r, debug.Stack())
		}
	}()
	load(t, m, "What about tomato 3?")
}

// Loads (read lock, concurrent) and saves past the lowered threshold, for
// the race detector, with units removed so that the words index rebuilds
// (ann Renumber) while loads run.
func TestConcurrentGathered(t *testing.T) {
	m := newMemory(t, option.WithTokenBudget(256), option.WithMaxUnits(260))
	m.words.rows.Above = 100
	fillTopics(t, m, 150)
	if !m.words.rows.Gathers() {
		t.Fatal("the memory does not gather: the test needs it to")
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 60 {
				if w < 3 {
					if _, err := m.LoadMemoryVariables(bg, map[string]any{"input": fmt.Sprintf("What about tomato %d?", i%17)}); err != nil {
						t.Error(err)
						return
					}
				} else if err := m.SaveContext(bg, map[string]any{"input": fmt.Sprintf("More on tomato %d from %d.", i, w)},
					map[string]any{"output": "Ok."}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// Embeddings that are zero, NaN or infinite, and an embedder whose
// dimension changes, past the threshold: errors are fine, panics not.
func TestOddEmbeddingsGathered(t *testing.T) {
	e := &oddEmbedder{dim: 16}
	m := newMemory(t, option.WithEmbedder(e))
	m.words.rows.Above = 40
	for i := range 80 {
		in := fmt.Sprintf("Turn %d about the garden and tomato %d.", i, i%7)
		switch i % 10 {
		case 3:
			in += " ZERO"
		case 5:
			in += " NAN"
		case 7:
			in += " INF"
		}
		if err := m.SaveContext(bg, map[string]any{"input": in}, map[string]any{"output": fmt.Sprintf("Reply %d.", i)}); err != nil {
			t.Logf("save %d: %v", i, err)
		}
	}
	t.Logf("gathers %v, rows %d", m.words.rows.Gathers(), m.words.rows.Len())
	for _, q := range []string{"tomato 3", "ZERO", "NAN", "INF", "   ", ""} {
		if _, err := m.LoadMemoryVariables(bg, map[string]any{"input": q}); err != nil {
			t.Logf("load %q: %v", q, err)
		}
	}
	e.mu.Lock()
	e.dim = 24
	e.mu.Unlock()
	for i := range 5 {
		if err := m.SaveContext(bg, map[string]any{"input": fmt.Sprintf("Wider %d tomato.", i)}, map[string]any{"output": "Ok."}); err != nil {
			t.Logf("save wider %d: %v", i, err)
		}
	}
	if _, err := m.LoadMemoryVariables(bg, map[string]any{"input": "tomato 3"}); err != nil {
		t.Logf("load after the dimension changed: %v", err)
	}
}
