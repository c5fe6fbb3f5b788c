package dmem

import (
	"math"
	"testing"
	"time"

	"github.com/engram-go/engram/internal/devset"
	"github.com/engram-go/engram/option"
)

// TestGatherKeepsRecall: on real dialogue grown past the size where loads
// gather (the development set's conversations, then turns that join halves
// of two real ones, 6,000 turns in all), a memory that gathers — the
// approximate nearest by vector, the best by the rarer words, the newest,
// and the turns around them — recalls each question's evidence as one
// that scores every unit does, at 1,024 and 4,096 tokens. It reads the
// LoCoMo file ENGRAM_LOCOMO names, with ENGRAM_EVAL=1.
func TestGatherKeepsRecall(t *testing.T) {
	turns, asks := devset.ForTest(t)
	turns = devset.Grow(turns, 6000)
	fill := func(budget, above int) *Memory {
		m := newMemory(t, option.WithTokenBudget(budget), option.WithMaxUnits(0))
		m.words.rows.Above = above
		for i := 0; i+1 < len(turns); i += 2 {
			if err := m.SaveContext(bg, map[string]any{"input": turns[i]}, map[string]any{"output": turns[i+1]}); err != nil {
				t.Fatal(err)
			}
		}
		return m
	}
	for _, budget := range []int{1024, 4096} {
		gm, em := fill(budget, 1000), fill(budget, math.MaxInt)
		if gm.words.rows.Len() <= 1000 || gm.words.rows.Len() != em.words.rows.Len() {
			t.Fatalf("%d and %d units held: the gathering memory must hold more than 1,000, as many as the other", gm.words.rows.Len(), em.words.rows.Len())
		}
		gathered, exact := recallOf(t, gm, asks), recallOf(t, em, asks)
		t.Logf("budget %d, %d units, %d questions: recall %.3f gathered, %.3f exact", budget, gm.words.rows.Len(), len(asks), gathered, exact)
		if gathered < exact-0.005 {
			t.Errorf("budget %d: gathered loads recall %.3f, exact loads %.3f", budget, gathered, exact)
		}
	}
}

// recallOf is devset.Recall of m, failing the test on an error.
func recallOf(t *testing.T, m *Memory, asks []devset.Question) float64 {
	t.Helper()
	r, err := devset.Recall(bg, m, asks)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestStoreLoadsKeepRecall: a memory on the embedded store scores the
// store's nearest units and the best by the rarer words (relevance.Gather)
// instead of every unit's words; on the development set's 2,760 turns in
// one memory it recalled 0.820 at 1,024 tokens and 0.920 at 4,096, as it
// did when it read every unit's BM25 (0.819, 0.920).
func TestStoreLoadsKeepRecall(t *testing.T) {
	turns, asks := devset.ForTest(t)
	for _, c := range []struct {
		budget int
		want   float64
	}{{1024, 0.815}, {4096, 0.915}} {
		m := newMemory(t, option.WithTokenBudget(c.budget), WithPath(t.TempDir()), WithSyncEvery(time.Hour))
		for i := 0; i+1 < len(turns); i += 2 {
			if err := m.SaveContext(bg, map[string]any{"input": turns[i]}, map[string]any{"output": turns[i+1]}); err != nil {
				t.Fatal(err)
			}
		}
		got := recallOf(t, m, asks)
		t.Logf("budget %d, %d questions: recall %.3f", c.budget, len(asks), got)
		if got < c.want {
			t.Errorf("budget %d: recall %.3f, want at least %.3f", c.budget, got, c.want)
		}
	}
}
