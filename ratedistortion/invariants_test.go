package ratedistortion

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/tokens"
	"github.com/tmc/langchaingo/llms"
)

// checkLoad loads with query q and checks every invariant of the result
// against the pool: the exact token count is within budget and equals
// Explain's, pairs and tool groups are whole, pinned units are kept, and
// kept units appear in chronological order.
func checkLoad(t testing.TB, b *Buffer, q string) {
	t.Helper()
	ctx := context.Background()
	v, err := b.LoadMemoryVariables(ctx, map[string]any{"input": q})
	if errors.Is(err, engram.ErrBudgetTooSmall) {
		// A pinned unit keeps its whole pair or group.
		groups := make(map[int64]bool)
		for _, u := range b.Units() {
			if u.Flags.Has(engram.FlagPinned) {
				groups[u.Group] = true
			}
		}
		pinned := 0
		for _, u := range b.Units() {
			if groups[u.Group] {
				pinned += u.Tokens
			}
		}
		if pinned <= b.opts.Budget {
			t.Fatalf("ErrBudgetTooSmall with %d pinned tokens, budget %d", pinned, b.opts.Budget)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	h := v["history"].(string)
	n := tokens.Default().Count(h)
	if n > b.opts.Budget {
		t.Fatalf("history is %d tokens, budget %d:\n%s", n, b.opts.Budget, h)
	}
	x, _ := b.ExplainSelection()
	if x.Tokens != n {
		t.Fatalf("Explain says %d tokens, history has %d", x.Tokens, n)
	}
	kept := make(map[int64][]bool)
	lastSeq := int64(-1)
	for _, u := range x.Units {
		// A tool call and its results are kept or dropped together; a
		// turn and its reply are selected apart.
		if u.Role == engram.RoleToolCall || u.Role == engram.RoleToolResult {
			kept[u.Group] = append(kept[u.Group], u.Kept)
		}
		if !u.Kept {
			continue
		}
		if u.Seq < lastSeq {
			t.Fatal("kept units out of order")
		}
		lastSeq = u.Seq
		if !strings.Contains(h, u.Text) {
			t.Fatalf("kept unit %s missing from history", u.ID)
		}
	}
	for g, ks := range kept {
		for _, k := range ks {
			if k != ks[0] {
				t.Fatalf("group %d split: %v", g, ks)
			}
		}
	}
	for _, u := range b.Units() {
		if u.Flags.Has(engram.FlagPinned) {
			found := false
			for _, r := range x.Units {
				found = found || (r.ID == u.ID && r.Kept)
			}
			if !found {
				t.Fatalf("pinned unit %s dropped", u.ID)
			}
		}
	}
}

func FuzzBuffer(f *testing.F) {
	f.Add([]byte("hello\x00world\x00remember my PIN is 1234\x00ok\xff\xfe bad utf8"), uint16(40), uint8(3))
	f.Add([]byte(strings.Repeat("a very long message that will not fit ", 40)), uint16(12), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, budget uint16, pin uint8) {
		b, err := New(option.WithTokenBudget(int(budget%300)+1), WithSummaryShare(0.2))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		parts := strings.Split(string(data), "\x00")
		for i := 0; i+1 < len(parts); i += 2 {
			if err := b.SaveContext(ctx, map[string]any{"input": parts[i]}, map[string]any{"output": parts[i+1]}); err != nil {
				t.Fatal(err)
			}
		}
		if units := b.Units(); len(units) > 0 && pin > 0 {
			if err := b.Pin(units[int(pin)%len(units)].ID); err != nil {
				t.Fatal(err)
			}
		}
		for _, u := range b.Units() {
			if !utf8.ValidString(u.Text) {
				t.Fatal("stored invalid UTF-8")
			}
		}
		checkLoad(t, b, parts[0])
		checkLoad(t, b, "")
	})
}

func TestInvariantsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	words := strings.Fields("alpha beta gamma delta Priya Lisbon 42 March remember that the cat sat on mat dog Biscuit")
	sentence := func() string {
		n := 1 + r.IntN(25)
		ws := make([]string, n)
		for i := range ws {
			ws[i] = words[r.IntN(len(words))]
		}
		return strings.Join(ws, " ") + "."
	}
	ctx := context.Background()
	for trial := range 60 {
		b := newBuffer(t, option.WithTokenBudget(20+r.IntN(400)), WithExactLimit(r.IntN(30)-5), WithSummaryShare(float64(r.IntN(3))/10))
		for range r.IntN(60) {
			switch r.IntN(5) {
			case 0:
				id := fmt.Sprint(r.IntN(1000))
				err := b.AddMessages(ctx,
					llms.AIChatMessage{ToolCalls: []llms.ToolCall{{ID: id, FunctionCall: &llms.FunctionCall{Name: "search", Arguments: sentence()}}}},
					llms.ToolChatMessage{ID: id, Content: sentence()})
				if err != nil {
					t.Fatal(err)
				}
			default:
				save(t, b, sentence(), sentence())
			}
			if r.IntN(10) == 0 {
				us := b.Units()
				_ = b.Pin(us[r.IntN(len(us))].ID)
			}
		}
		checkLoad(t, b, sentence())
		if trial%10 == 0 {
			checkLoad(t, b, "")
		}
	}
}

func TestConcurrentSaveAndLoad(t *testing.T) {
	b := newBuffer(t, option.WithTokenBudget(300), option.WithMaxUnits(200), option.WithLogger(slog.New(slog.DiscardHandler)))
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range 100 {
				in := map[string]any{"input": fmt.Sprintf("writer %d says fact number %d", w, i)}
				if err := b.SaveContext(ctx, in, map[string]any{"output": "noted"}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
		go func() {
			defer wg.Done()
			for i := range 50 {
				if _, err := b.LoadMemoryVariables(ctx, map[string]any{"input": fmt.Sprintf("fact %d", i)}); err != nil {
					t.Error(err)
					return
				}
				b.ExplainSelection()
				b.Reward(ctx, 1)
			}
		}()
	}
	wg.Wait()
	if n := b.Len(); n > 200 || n < 100 {
		t.Fatalf("pool has %d units, want between 100 and the cap of 200", n)
	}
}
