package ratedistortion

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/option"
	"github.com/tmc/langchaingo/llms"
)

// stuckTier is a long-term tier that takes nothing: what the cap lets go
// stays queued in the buffer.
type stuckTier struct{}

func (stuckTier) Demote(context.Context, []engram.Demoted) error { return errors.New("tier down") }
func (stuckTier) Recall(context.Context, string, int) ([]engram.Unit, error) {
	return nil, nil
}
func (stuckTier) Reward(context.Context, float64) error { return nil }

// stepClock is a clock that moves a second a call, in UTC.
func stepClock() func() time.Time {
	var n atomic.Int64
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	return func() time.Time { return t0.Add(time.Duration(n.Add(1)) * time.Second) }
}

func persistOpts() []Option {
	return []Option{option.WithTokenBudget(120), option.WithMaxUnits(30), WithLongTerm(stuckTier{}),
		option.WithLogger(slog.New(slog.DiscardHandler)), option.WithClock(stepClock())}
}

// richBuffer has every kind of state a save must keep: pairs, a pin,
// rewards and retrievals, a tool call still waiting for its result, an
// open human turn, units the cap let go and the tier did not take.
func richBuffer(t testing.TB, opts ...Option) *Buffer {
	t.Helper()
	ctx := context.Background()
	b := newBuffer(t, opts...)
	facts := []string{
		"My sister Priya is a marine biologist in Lisbon.",
		"Remember that my locker code is 4471.",
		"We adopted a dog called Biscuit in March.",
		"The project deadline moved to 14 November.",
		"I switched from tea to coffee last year.",
	}
	for i := range 20 {
		save(t, b, facts[i%len(facts)]+fmt.Sprintf(" (note %d)", i), fmt.Sprintf("Noted, item %d.", i))
		if i%4 == 0 {
			load(t, b, facts[(i+1)%len(facts)])
			if err := b.Reward(ctx, float64(i%3)-0.5); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A qualified turn and a correction, kept with the turns they depend on.
	save(t, b, "I like apples.", "Good to know.")
	save(t, b, "But not green apples.", "Understood.")
	save(t, b, "The meeting is on Monday.", "Okay.")
	save(t, b, "No, I said Tuesday.", "Tuesday it is.")
	err := b.AddMessages(ctx,
		llms.AIChatMessage{ToolCalls: []llms.ToolCall{{ID: "call-1", FunctionCall: &llms.FunctionCall{Name: "weather", Arguments: `{"city":"Lisbon"}`}}}},
		llms.ToolChatMessage{ID: "call-1", Content: "Sunny, 24 °C."},
		llms.AIChatMessage{ToolCalls: []llms.ToolCall{{ID: "call-2", FunctionCall: &llms.FunctionCall{Name: "calendar", Arguments: `{"day":"Friday"}`}}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	us := b.Units()
	if err := b.Pin(us[len(us)/2].ID); err != nil {
		t.Fatal(err)
	}
	if err := b.AddMessages(ctx, llms.HumanChatMessage{Content: "What was the locker code again?"}); err != nil {
		t.Fatal(err)
	}
	return b
}

func saved(t testing.TB, b *Buffer) []byte {
	t.Helper()
	var w bytes.Buffer
	if err := b.Save(&w); err != nil {
		t.Fatal(err)
	}
	return w.Bytes()
}

func restored(t testing.TB, data []byte, opts ...Option) *Buffer {
	t.Helper()
	b, err := Restore(context.Background(), bytes.NewReader(data), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wall drops the monotonic clock readings, which a save does not keep.
func wall(us []engram.Unit) []engram.Unit {
	for i := range us {
		us[i].Time = us[i].Time.Round(0)
	}
	return us
}

// sameState fails unless b and c hold the same pool and counters; with
// times false, the units' times may differ.
func sameState(t *testing.T, b, c *Buffer, times bool) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	if b.seq != c.seq || b.group != c.group || b.openHuman != c.openHuman || b.dropped != c.dropped {
		t.Fatalf("counters seq %d/%d group %d/%d open %d/%d dropped %d/%d",
			b.seq, c.seq, b.group, c.group, b.openHuman, c.openHuman, b.dropped, c.dropped)
	}
	if !reflect.DeepEqual(b.toolGroup, c.toolGroup) {
		t.Fatalf("tool groups %v, restored %v", b.toolGroup, c.toolGroup)
	}
	if len(b.pool) != len(c.pool) {
		t.Fatalf("%d units, restored %d", len(b.pool), len(c.pool))
	}
	for i, e := range b.pool {
		f := c.pool[i]
		u, v := e.unit, f.unit
		u.Time = u.Time.Round(0)
		if !times {
			u.Time = v.Time
		}
		if !reflect.DeepEqual(u, v) || e.retrieved != f.retrieved || e.reward != f.reward ||
			!reflect.DeepEqual(e.toolIDs, f.toolIDs) || !reflect.DeepEqual(b.termsOf(e), c.termsOf(f)) ||
			e.facts != f.facts || !reflect.DeepEqual(e.call, f.call) {
			t.Fatalf("unit %d:\n%+v %d %v %v\nrestored\n%+v %d %v %v", i,
				e.unit, e.retrieved, e.reward, e.toolIDs, f.unit, f.retrieved, f.reward, f.toolIDs)
		}
		if c.byID[f.unit.ID] != f {
			t.Fatalf("unit %s not found by id", f.unit.ID)
		}
	}
	if len(b.demoted) != len(c.demoted) {
		t.Fatalf("queued for the tier: %d units, restored %d", len(b.demoted), len(c.demoted))
	}
	for i, d := range b.demoted {
		d.Time = d.Time.Round(0)
		if !times {
			d.Time = c.demoted[i].Time
		}
		if !reflect.DeepEqual(d, c.demoted[i]) {
			t.Fatalf("queued unit %d: %+v, restored %+v", i, d, c.demoted[i])
		}
	}
}

func TestRestoreResumesThePool(t *testing.T) {
	b := richBuffer(t, persistOpts()...)
	b.mu.Lock()
	queued, dropped := len(b.demoted), b.dropped
	b.mu.Unlock()
	if queued == 0 || dropped == 0 {
		t.Fatalf("the fixture should have units queued for the tier (%d) and dropped (%d)", queued, dropped)
	}
	c := restored(t, saved(t, b), persistOpts()...)
	sameState(t, b, c, true)
	if !reflect.DeepEqual(b.Units(), c.Units()) {
		t.Fatal("Units differ after restore")
	}

	ctx := context.Background()
	for _, q := range []string{"What does Priya do?", "locker code", "", "When is the deadline?", "weather in Lisbon", "Which apples?", "When is the meeting?"} {
		if got, want := load(t, c, q), load(t, b, q); got != want {
			t.Fatalf("query %q:\nrestored:\n%s\noriginal:\n%s", q, got, want)
		}
		x, _ := b.Explain()
		y, _ := c.Explain()
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("query %q: Explain differs:\n%+v\nrestored:\n%+v", q, x, y)
		}
		if err := b.Reward(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if err := c.Reward(ctx, 1); err != nil {
			t.Fatal(err)
		}
	}

	// Both go on alike: the open turn takes its reply, the waiting tool
	// call its result, and new units continue the numbering.
	for _, m := range []*Buffer{b, c} {
		err := m.AddMessages(ctx, llms.AIChatMessage{Content: "It is 4471."},
			llms.ToolChatMessage{ID: "call-2", Content: "Friday: dentist at 10."})
		if err != nil {
			t.Fatal(err)
		}
		save(t, m, "Priya is visiting on Friday.", "Lovely.")
	}
	sameState(t, b, c, false)
	us := c.Units()
	for _, u := range us {
		if u.Text == "It is 4471." && !hasGroup(us, u.Group, "locker code again") {
			t.Fatal("the reply after restore did not join the open human turn")
		}
		if u.Text == "Friday: dentist at 10." && !hasGroup(us, u.Group, "calendar") {
			t.Fatal("the tool result after restore did not join its call")
		}
	}
	if got, want := load(t, c, "Friday plans"), load(t, b, "Friday plans"); got != want {
		t.Fatalf("after more turns:\nrestored:\n%s\noriginal:\n%s", got, want)
	}
}

func hasGroup(us []engram.Unit, g int64, text string) bool {
	for _, u := range us {
		if u.Group == g && strings.Contains(u.Text, text) {
			return true
		}
	}
	return false
}

// The queue for the long-term tier survives a restart and reaches the
// tier at the next save.
func TestRestoreHandsDownTheQueue(t *testing.T) {
	b := richBuffer(t, persistOpts()...)
	b.mu.Lock()
	want := len(b.demoted)
	b.mu.Unlock()
	tier := &takingTier{}
	opts := append(persistOpts(), WithLongTerm(tier))
	c := restored(t, saved(t, b), opts...)
	save(t, c, "One more thing.", "Sure.")
	if len(tier.got) < want {
		t.Fatalf("the tier got %d units, want the %d queued", len(tier.got), want)
	}
}

type takingTier struct {
	stuckTier
	got []engram.Demoted
}

func (l *takingTier) Demote(_ context.Context, ds []engram.Demoted) error {
	l.got = append(l.got, ds...)
	return nil
}

// A restore under the same prefixes and counter keeps the stored counts;
// under others it counts every unit again.
func TestRestoreRecountsTokens(t *testing.T) {
	var calls atomic.Int64
	byLen := func(s string) int { calls.Add(1); return len(s) }
	opts := append(persistOpts(), option.WithTokenCounter(byLen))
	data := saved(t, richBuffer(t, opts...))
	calls.Store(0)
	restored(t, data, opts...)
	if n := calls.Load(); n > 3 { // the summary header and the fingerprint's two samples
		t.Fatalf("restoring under the same counter counted %d lines", n)
	}

	c := restored(t, data, append(opts, option.WithHumanPrefix("User"))...)
	for _, e := range c.pool {
		if line := c.line(e.unit.Role, e.unit.Text); e.unit.Tokens != max(1, len(line)) || strings.HasPrefix(line, "Human") {
			t.Fatalf("unit %s: %d tokens for %q", e.unit.ID, e.unit.Tokens, line)
		}
	}
	h := load(t, c, "locker code")
	if !strings.Contains(h, "User: ") || strings.Contains(h, "Human: ") {
		t.Fatalf("restored under prefix User, rendered:\n%s", h)
	}
	if x, _ := c.Explain(); x.Tokens != len(h) || x.Tokens > 120 {
		t.Fatalf("explained %d tokens for a history of %d bytes (budget 120)", x.Tokens, len(h))
	}

	d := restored(t, data, persistOpts()...) // tiktoken's counts, not bytes
	for _, e := range d.pool {
		if want := max(1, d.opts.Counter(d.line(e.unit.Role, e.unit.Text))); e.unit.Tokens != want {
			t.Fatalf("unit %s: %d tokens under tiktoken, want %d", e.unit.ID, e.unit.Tokens, want)
		}
	}
}

// countingEmbedder is the default embedder, counting the texts embedded.
type countingEmbedder struct {
	*embed.Embedder
	texts atomic.Int64
}

func (c *countingEmbedder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	c.texts.Add(int64(len(texts)))
	return c.Embedder.EmbedDocuments(ctx, texts)
}

// otherEmbedder embeds into 3 dimensions.
type otherEmbedder struct{}

func (otherEmbedder) EmbedDocuments(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, s := range texts {
		out[i] = []float32{float32(len(s)), float32(strings.Count(s, " ")), 1}
	}
	return out, nil
}

func (otherEmbedder) EmbedQuery(_ context.Context, s string) ([]float32, error) {
	return []float32{float32(len(s)), float32(strings.Count(s, " ")), 1}, nil
}

// Stored embeddings are kept when the embedder still makes them (one text
// embedded to check), and made again when it does not.
func TestRestoreEmbeddings(t *testing.T) {
	b := richBuffer(t, persistOpts()...)
	data := saved(t, b)
	e, err := embed.New()
	if err != nil {
		t.Fatal(err)
	}
	ce := &countingEmbedder{Embedder: e}
	c := restored(t, data, append(persistOpts(), option.WithEmbedder(ce))...)
	if n := ce.texts.Load(); n != 1 {
		t.Fatalf("restore with the same embedder embedded %d texts, want 1", n)
	}
	sameState(t, b, c, true)

	d := restored(t, data, append(persistOpts(), option.WithEmbedder(otherEmbedder{}))...)
	for _, u := range d.Units() {
		if len(u.Embedding) != 3 {
			t.Fatalf("unit %s keeps a %d-dimensional embedding under a 3-dimensional embedder", u.ID, len(u.Embedding))
		}
	}
	load(t, d, "locker code")
	save(t, d, "And one more.", "Fine.")
}

// zeroEmbedder knows no word, and counts the texts it embeds.
type zeroEmbedder struct{ texts atomic.Int64 }

func (z *zeroEmbedder) EmbedDocuments(_ context.Context, texts []string) ([][]float32, error) {
	z.texts.Add(int64(len(texts)))
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = make([]float32, 8)
	}
	return out, nil
}

func (z *zeroEmbedder) EmbedQuery(context.Context, string) ([]float32, error) {
	return make([]float32, 8), nil
}

// Zero vectors, stored and made again, agree: nothing is embedded again.
func TestRestoreZeroEmbeddings(t *testing.T) {
	z := &zeroEmbedder{}
	data := saved(t, richBuffer(t, append(persistOpts(), option.WithEmbedder(z))...))
	z.texts.Store(0)
	restored(t, data, append(persistOpts(), option.WithEmbedder(z))...)
	if n := z.texts.Load(); n != 1 {
		t.Fatalf("restore embedded %d texts, want 1", n)
	}
}

func TestRestoreRefusesDamage(t *testing.T) {
	data := saved(t, richBuffer(t, persistOpts()...))
	bad := func(t *testing.T, in []byte, want error) {
		t.Helper()
		b, err := Restore(context.Background(), bytes.NewReader(in), persistOpts()...)
		if b != nil || !errors.Is(err, want) || !errors.Is(err, engram.ErrInvalidInput) {
			t.Fatalf("restore gave %v, %v; want nil and an error wrapping %v and ErrInvalidInput", b, err, want)
		}
	}
	t.Run("empty", func(t *testing.T) { bad(t, nil, ErrCorrupt) })
	t.Run("other file", func(t *testing.T) { bad(t, []byte("{\"units\": []}\n"), ErrCorrupt) })
	t.Run("truncated", func(t *testing.T) {
		for n := range len(data) {
			bad(t, data[:n], ErrCorrupt)
		}
	})
	t.Run("flipped byte", func(t *testing.T) {
		for i := range data {
			d := bytes.Clone(data)
			d[i] ^= 0x20
			want := ErrCorrupt
			if i >= len(magic) && i < len(magic)+2 {
				want = ErrVersion
			}
			bad(t, d, want)
		}
	})
	t.Run("future version", func(t *testing.T) {
		d := bytes.Clone(data)
		binary.LittleEndian.PutUint16(d[len(magic):], formatVersion+1)
		bad(t, reseal(d[headerLen:len(d)-4], formatVersion+1), ErrVersion)
	})
	t.Run("resealed but inconsistent", func(t *testing.T) {
		body := data[headerLen : len(data)-4]
		bad(t, reseal(append(bytes.Clone(body), 0), formatVersion), ErrCorrupt)
		bad(t, reseal(body[:len(body)-1], formatVersion), ErrCorrupt)
	})
	t.Run("trailing data is not read", func(t *testing.T) {
		r := bytes.NewReader(append(bytes.Clone(data), "next"...))
		if _, err := Restore(context.Background(), r, persistOpts()...); err != nil {
			t.Fatal(err)
		}
		if r.Len() != 4 {
			t.Fatalf("restore read %d bytes past the saved buffer", 4-r.Len())
		}
	})
}

// TestRestoreReadErrorIsNotDamage: a reader that fails, at any byte, gives
// its own error, not ErrCorrupt: the saved buffer may be sound, and a
// caller that deletes what is corrupt must not delete it. A directory
// given as the file is refused as bad input, not as damage either.
func TestRestoreReadErrorIsNotDamage(t *testing.T) {
	data := saved(t, richBuffer(t, persistOpts()...))
	disk := errors.New("disk read failed")
	for _, n := range []int{0, 1, len(magic), headerLen - 1, headerLen, headerLen + 10} {
		r := io.MultiReader(bytes.NewReader(data[:n]), iotest.ErrReader(disk))
		b, err := Restore(context.Background(), r, persistOpts()...)
		if b != nil || !errors.Is(err, disk) || errors.Is(err, ErrCorrupt) {
			t.Fatalf("a read failing after %d bytes: restore gave %v, %v; want nil and the read's error, not ErrCorrupt", n, b, err)
		}
	}
	_, err := RestoreFile(context.Background(), t.TempDir(), persistOpts()...)
	if !errors.Is(err, engram.ErrInvalidInput) || errors.Is(err, ErrCorrupt) {
		t.Fatalf("restoring a directory gave %v, want ErrInvalidInput, not ErrCorrupt", err)
	}
	// A reader that knows its stream was cut (a truncated gzip file) says
	// io.ErrUnexpectedEOF: truncated input, in the header or the body.
	for _, n := range []int{1, headerLen + 10} {
		r := io.MultiReader(bytes.NewReader(data[:n]), iotest.ErrReader(io.ErrUnexpectedEOF))
		if _, err := Restore(context.Background(), r, persistOpts()...); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("a stream cut after %d bytes gave %v, want ErrCorrupt", n, err)
		}
	}
}

// reseal wraps body in a header and a valid checksum.
func reseal(body []byte, version uint16) []byte {
	out := append([]byte(magic), 0, 0)
	binary.LittleEndian.PutUint16(out[len(magic):], version)
	out = binary.LittleEndian.AppendUint64(out, uint64(len(body)))
	out = append(out, body...)
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli))
}

// Damaged input never panics nor gives half a buffer; a body that passes
// its checks gives a buffer that loads, saves and round-trips.
func FuzzRestore(f *testing.F) {
	ctx := context.Background()
	small := newBuffer(f, option.WithTokenBudget(60))
	save(f, small, "Priya lives in Lisbon.", "Nice.")
	if err := small.AddMessages(ctx, llms.AIChatMessage{ToolCalls: []llms.ToolCall{{ID: "c", FunctionCall: &llms.FunctionCall{Name: "f"}}}}); err != nil {
		f.Fatal(err)
	}
	data := saved(f, small)
	f.Add(data, false)
	f.Add(data[headerLen:len(data)-4], true)
	f.Add(saved(f, newBuffer(f)), false)
	f.Add([]byte(magic), false)
	withFacts := newBuffer(f, option.WithTokenBudget(60), option.WithFacts(cityFacts().extract))
	save(f, withFacts, oldCity, "Ana: Lovely.")
	save(f, withFacts, newCity, "Ana: What a change!")
	facts := saved(f, withFacts)
	f.Add(facts, false)
	rated := newBuffer(f, option.WithTokenBudget(60))
	save(f, rated, "Priya lives in Lisbon.", "Nice.")
	load(f, rated, "Where does Priya live?")
	if err := rated.Reward(ctx, 1); err != nil {
		f.Fatal(err)
	}
	f.Add(saved(f, rated), false)
	f.Add(facts[headerLen:len(facts)-4], true)
	f.Fuzz(func(t *testing.T, in []byte, sealed bool) {
		if sealed {
			in = reseal(in, formatVersion)
		}
		b, err := Restore(ctx, bytes.NewReader(in), option.WithTokenBudget(60))
		if err != nil {
			if b != nil || !errors.Is(err, engram.ErrInvalidInput) {
				t.Fatalf("restore gave %v, %v", b, err)
			}
			return
		}
		// A checksummed body is trusted as written (its token counts, say),
		// so the budget's invariants are not checked: only that the buffer
		// works.
		for _, q := range []string{"Lisbon", ""} {
			if _, err := b.LoadMemoryVariables(ctx, map[string]any{"input": q}); err != nil && !errors.Is(err, engram.ErrBudgetTooSmall) {
				t.Fatal(err)
			}
		}
		save(t, b, "Where does Priya live?", "Lisbon.")
		c := restored(t, saved(t, b), option.WithTokenBudget(60))
		if !reflect.DeepEqual(wall(b.Units()), c.Units()) {
			t.Fatal("a restored buffer does not round-trip")
		}
	})
}

// Save copies the buffer under its lock: saves, loads and rewards may run
// meanwhile, and every copy restores.
func TestSaveDuringSaveContextIsRaceFree(t *testing.T) {
	b := newBuffer(t, option.WithTokenBudget(200), option.WithMaxUnits(80), option.WithLogger(slog.New(slog.DiscardHandler)))
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			for i := range 60 {
				in := map[string]any{"input": fmt.Sprintf("writer %d says fact number %d", w, i)}
				if err := b.SaveContext(ctx, in, map[string]any{"output": "noted"}); err != nil {
					t.Error(err)
					return
				}
				if i%10 == 0 {
					if _, err := b.LoadMemoryVariables(ctx, map[string]any{"input": "fact 3"}); err != nil {
						t.Error(err)
						return
					}
					b.Reward(ctx, 1)
				}
			}
		})
	}
	var last []byte
	wg.Go(func() {
		for range 30 {
			var w bytes.Buffer
			if err := b.Save(&w); err != nil {
				t.Error(err)
				return
			}
			if _, err := Restore(ctx, bytes.NewReader(w.Bytes())); err != nil {
				t.Error(err)
				return
			}
			last = w.Bytes()
		}
	})
	wg.Wait()
	if len(last) == 0 {
		t.Fatal("no save")
	}
	c := restored(t, saved(t, b), option.WithTokenBudget(200), option.WithMaxUnits(80))
	sameState(t, b, c, true)
}

func TestSaveFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "memory.rd")
	b := richBuffer(t, persistOpts()...)
	if err := b.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	save(t, b, "A later fact: the boat is blue.", "Noted.")
	if err := b.SaveFile(path); err != nil { // over the old one
		t.Fatal(err)
	}
	c, err := RestoreFile(context.Background(), path, persistOpts()...)
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, b, c, true)
	if fi, err := os.Stat(path); err != nil || runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("saved file: %v, %v; want mode 0600", fi.Mode(), err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Fatalf("the directory holds %d files, want the saved one alone", len(es))
	}
	if err := b.SaveFile(filepath.Join(dir, "missing", "memory.rd")); err == nil {
		t.Fatal("saved into a directory that does not exist")
	}
	if _, err := RestoreFile(context.Background(), filepath.Join(dir, "absent.rd")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("restoring an absent file gave %v", err)
	}
}

// What ratings taught survives a save: the restored buffer answers a rated
// question as the saved one does. A version 3 file, which has no ratings,
// still restores.
func TestRestoreKeepsWhatRatingsTaught(t *testing.T) {
	ctx := context.Background()
	b := deployPool(t)
	q := deployQuestion
	first := load(t, b, q)
	if err := b.Reward(ctx, -1); err != nil {
		t.Fatal(err)
	}
	rated := load(t, b, q)
	if rated == first {
		t.Fatal("the rating changed nothing")
	}
	r := restored(t, saved(t, b), option.WithTokenBudget(14), WithSummaryShare(0))
	if got := load(t, r, q); got != rated {
		t.Fatalf("restored:\n%s\nwant, as before the save:\n%s", got, rated)
	}
	// A rating right after a restore rates no load.
	if err := r.Reward(ctx, 1); err != nil {
		t.Fatal(err)
	}
	v3 := b.snapshot().encodeVersion(3)
	old, err := Restore(ctx, bytes.NewReader(v3), option.WithTokenBudget(14), WithSummaryShare(0))
	if err != nil {
		t.Fatalf("a version 3 file: %v", err)
	}
	if got := load(t, old, q); got != first {
		t.Fatalf("restored from version 3, which has no ratings:\n%s\nwant the unrated answer\n%s", got, first)
	}
}

// Ratings beyond ±1 count as ±1 everywhere, so that however many come a
// buffer's saved form stays one Restore reads.
func TestHugeRatingsStillRestore(t *testing.T) {
	ctx := context.Background()
	b := newBuffer(t, option.WithTokenBudget(14), WithSummaryShare(0))
	save(t, b, "The deploy script lives in tools/deploy.sh.", "")
	save(t, b, "Deploy from the build host only.", "")
	for range 3 {
		load(t, b, "How do I deploy?")
		for range 2 {
			if err := b.Reward(ctx, math.MaxFloat64); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, e := range b.pool {
		if e.reward > 6 {
			t.Fatalf("unit %s holds a reward of %v from six ratings", e.unit.ID, e.reward)
		}
	}
	restored(t, saved(t, b), option.WithTokenBudget(14), WithSummaryShare(0))
}

// A file with bytes after the saved buffer is damaged, not restored as if
// whole: RestoreFile says so with ErrCorrupt. Restore from a stream reads
// only what the buffer takes, and leaves the rest to its caller.
func TestRestoreFileRefusesTrailingBytes(t *testing.T) {
	b := newBuffer(t)
	save(t, b, "The wifi password is kiwi-7731.", "Noted.")
	path := filepath.Join(t.TempDir(), "memory.rd")
	if err := b.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, "garbage"...), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := RestoreFile(context.Background(), path); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a file with trailing bytes: %v, want ErrCorrupt", err)
	}
	r := bytes.NewReader(append(data, "next"...))
	if _, err := Restore(context.Background(), r); err != nil {
		t.Fatalf("a stream with more after the buffer: %v", err)
	}
	if rest, _ := io.ReadAll(r); string(rest) != "next" {
		t.Errorf("Restore left %q of the stream, want %q", rest, "next")
	}
}

// TestRestoreChecksOptionsFirst: a refused option leaves the reader
// unread, so that a caller with a stream it cannot rewind can try again.
func TestRestoreChecksOptionsFirst(t *testing.T) {
	b := newBuffer(t)
	var saved bytes.Buffer
	if err := b.Save(&saved); err != nil {
		t.Fatal(err)
	}
	n := saved.Len()
	if _, err := Restore(context.Background(), &saved, option.WithTokenBudget(0)); !errors.Is(err, engram.ErrInvalidOption) {
		t.Fatalf("a budget of 0: %v", err)
	}
	if saved.Len() != n {
		t.Fatalf("the refused restore read %d of %d bytes", n-saved.Len(), n)
	}
	if _, err := Restore(context.Background(), &saved); err != nil {
		t.Fatalf("restore after the refusal: %v", err)
	}
}

// TestHugeCountsRestore: a counter's count above what a saved unit holds
// is taken as that most, so that a buffer it counted saves and restores.
func TestHugeCountsRestore(t *testing.T) {
	huge := option.WithTokenCounter(func(string) int { return 3e9 })
	b, err := New(huge, option.WithTokenBudget(math.MaxInt))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := b.SaveContext(ctx, map[string]any{"input": "My locker code is 4821."}, map[string]any{"output": "Noted."}); err != nil {
		t.Fatal(err)
	}
	var saved bytes.Buffer
	if err := b.Save(&saved); err != nil {
		t.Fatal(err)
	}
	if _, err := Restore(ctx, &saved, huge, option.WithTokenBudget(math.MaxInt)); err != nil {
		t.Fatalf("restore: %v", err)
	}
}
