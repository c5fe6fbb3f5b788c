package boltstore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/dmem/boltstore"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/option"
	bolt "go.etcd.io/bbolt"
)

// damageFixture is a real store file, and what it holds.
type damageFixture struct {
	file  []byte
	ps    int64
	used  int64            // bytes below the high-water mark: the pages in use
	texts map[string]bool  // the stored units' texts
	bySeq map[int64]string // the stored units' texts by Seq
	runs  []pageRun        // the pages of its tree
	// variants are copies with one of a namespace's buckets deleted.
	variants [][]byte
}

// pageRun is a tree page and its overflow pages, as the fixture lays them.
type pageRun struct {
	start, end int64           // byte range
	buckets    bool            // it holds bucket entries: damage may rename a namespace
	texts      map[string]bool // stored units whose record lies in it
}

var fixtureNS = engram.Namespace{User: "ann", Agent: "assistant"}

// fixtureOptions open the fixture's memory, or a copy of it, in dir.
func fixtureOptions(dir string) []dmem.Option {
	return []dmem.Option{dmem.WithPath(dir), dmem.WithNamespace(fixtureNS.User, fixtureNS.Agent, fixtureNS.Session), dmem.WithShortTerm(8)}
}

var (
	fixtureOnce sync.Once
	fixture     damageFixture
	fixtureErr  error
)

// getFixture builds the fixture once: a memory of 60 turns in a bbolt
// file, closed (the last commit holds no unit, so that bbolt's older meta
// page holds them all too).
func getFixture(t testing.TB) damageFixture {
	t.Helper()
	fixtureOnce.Do(func() { fixture, fixtureErr = buildFixture() })
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	return fixture
}

func buildFixture() (damageFixture, error) {
	var fx damageFixture
	dir, err := os.MkdirTemp("", "dmem-fixture-")
	if err != nil {
		return fx, err
	}
	defer os.RemoveAll(dir)
	m, err := dmem.New(bg, fixtureOptions(dir)...)
	if err != nil {
		return fx, err
	}
	for i := range 60 {
		in := fmt.Sprintf("Fact %d: %s moved to %s and plays the %s every %s.", i, fxNames[i%len(fxNames)], fxCities[i%len(fxCities)], fxInstr[i%len(fxInstr)], fxDays[i%len(fxDays)])
		if err := m.SaveContext(bg, map[string]any{"input": in}, map[string]any{"output": fmt.Sprintf("Noted, fact %d.", i)}); err != nil {
			return fx, err
		}
	}
	fx.texts = stored(m)
	fx.bySeq = make(map[int64]string)
	for _, r := range [...]dmem.Route{dmem.RouteCore, dmem.RouteShort} {
		for _, u := range m.UnitsIn(r) {
			fx.bySeq[u.Seq] = u.Text
		}
	}
	if err := m.Close(); err != nil {
		return fx, err
	}
	path := filepath.Join(dir, boltstore.FileName)
	if fx.file, err = os.ReadFile(path); err != nil {
		return fx, err
	}
	var pages []boltstore.Page
	if fx.ps, fx.used, pages, err = boltstore.Pages(fx.file); err != nil {
		return fx, err
	}
	for _, p := range pages {
		r := pageRun{start: p.Start, end: p.End, buckets: p.Buckets, texts: make(map[string]bool)}
		for text := range fx.texts {
			if bytes.Contains(p.Bytes, []byte(text)) {
				r.texts[text] = true
			}
		}
		fx.runs = append(fx.runs, r)
	}
	for _, name := range [...][]byte{boltstore.UnitsBucket, boltstore.LogBucket, boltstore.TermsBucket, boltstore.MetaBucket} {
		b, err := rewrite(fx.file, func(tx *bolt.Tx) error {
			return boltstore.NamespaceBucket(tx, fixtureNS).DeleteBucket(name)
		})
		if err != nil {
			return fx, err
		}
		fx.variants = append(fx.variants, b)
	}
	return fx, nil
}

// rewrite returns a copy of the store file b changed by fn, through bbolt.
func rewrite(b []byte, fn func(*bolt.Tx) error) ([]byte, error) {
	dir, err := os.MkdirTemp("", "dmem-variant-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, boltstore.FileName)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return nil, err
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return nil, err
	}
	err = db.Update(fn)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// writeStore writes b as the store file of a new directory.
func writeStore(t testing.TB, b []byte) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, boltstore.FileName)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// openDamaged opens the store file b as the fixture's memory.
func openDamaged(t testing.TB, b []byte) (*dmem.Memory, string, error) {
	t.Helper()
	dir, path := writeStore(t, b)
	m, err := dmem.New(bg, fixtureOptions(dir)...)
	if err == nil {
		t.Cleanup(func() { m.Close() })
	}
	return m, path, err
}

// checkDamaged is the property of a damaged copy b of the fixture whose
// bytes [lo, hi) changed (hi ≤ lo: truncated to lo): New fails with
// ErrCorrupt naming the file, or it opens, holds every unit whose pages
// the damage missed, and takes a write.
func checkDamaged(t *testing.T, fx damageFixture, b []byte, lo, hi int64, strict bool) {
	m, path, err := openDamaged(t, b)
	if err != nil {
		if !errors.Is(err, boltstore.ErrCorrupt) || !strings.Contains(err.Error(), path) {
			t.Fatalf("a damaged file fails with %v, want ErrCorrupt naming %s", err, path)
		}
		// What Salvage makes of it opens.
		to := t.TempDir()
		if _, err := dmem.Salvage(bg, path, to); err != nil {
			if !errors.Is(err, boltstore.ErrCorrupt) {
				t.Fatalf("salvage: %v", err)
			}
			return
		}
		m, err := dmem.New(bg, fixtureOptions(to)...)
		if err != nil {
			t.Fatalf("open of what Salvage made: %v", err)
		}
		m.Close()
		return
	}
	if strict {
		t.Fatalf("a damaged file opened")
	}
	excused := make(map[string]bool)
	check := true
	for _, r := range fx.runs {
		if hi <= lo && r.end > lo || hi > lo && r.start < hi && lo < r.end {
			check = check && !r.buckets
			for text := range r.texts {
				excused[text] = true
			}
		}
	}
	got := stored(m)
	if check {
		for text := range fx.texts {
			if !excused[text] && !got[text] {
				t.Errorf("the damage at [%d, %d) lost %q, whose pages it did not touch", lo, hi, text)
			}
		}
	}
	if err := m.SaveContext(bg, map[string]any{"input": "Freya moved to Porto."}, map[string]any{"output": "Noted."}); err != nil {
		t.Fatalf("save after opening a damaged file: %v", err)
	}
	load(t, m, "Where did Freya move?")
	if err := m.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
}

// FuzzOpenDamaged drives New over damaged copies of a real file:
// truncations, byte flips, zeroed pages, missing buckets. No damage may
// panic or fault; New fails with ErrCorrupt, or every unit the damage
// missed is there. The seeds run with every go test.
func FuzzOpenDamaged(f *testing.F) {
	fx := getFixture(f)
	n := uint32(len(fx.file))
	ps := uint32(fx.ps)
	u := uint32(fx.used)
	for _, off := range []uint32{0, 1, 8 << 10, 16 << 10, 3 * ps, u / 2, u - 1, u, n - 1} {
		f.Add(uint8(0), off, uint8(0))
	}
	for _, off := range []uint32{12, 30, 60, ps + 40, ps + 70, 2*ps + 8, 2*ps + 10, 2*ps + 20, 3*ps + 100, 4*ps + 2000, u / 2, u - 100, n - 100} {
		f.Add(uint8(1), off, uint8(0x41))
	}
	for page := range uint32(6) {
		f.Add(uint8(2), page, uint8(0))
	}
	f.Add(uint8(2), u/ps-1, uint8(0))
	for i := range uint32(len(fx.variants)) {
		f.Add(uint8(3), i, uint8(0))
	}
	for _, off := range []uint32{20, ps + 20, 2*ps + 16, 3*ps + 40, u / 2} {
		f.Add(uint8(4), off, uint8(off))
	}
	for i := range uint32(6) {
		f.Add(uint8(5), i*7+1, uint8(i))
	}
	f.Fuzz(func(t *testing.T, kind uint8, off uint32, val uint8) {
		b := bytes.Clone(fx.file)
		switch kind % 6 {
		case 0:
			lo := int64(off % n)
			checkDamaged(t, fx, b[:lo], lo, lo, false)
		case 1:
			i := int64(off % n)
			b[i] ^= val | 1
			checkDamaged(t, fx, b, i, i+1, false)
		case 2:
			page := int64(off % (n / ps))
			lo, hi := page*fx.ps, (page+1)*fx.ps
			clear(b[lo:hi])
			checkDamaged(t, fx, b, lo, hi, false)
		case 4: // 16 bytes overwritten
			i := int64(off % (n - 16))
			r := rand.New(rand.NewPCG(uint64(val), uint64(off)))
			for j := range int64(16) {
				b[i+j] = byte(r.Uint32())
			}
			checkDamaged(t, fx, b, i, i+16, false)
		case 5: // one page copied over another
			pages := u / ps
			from, to := int64(off%pages), int64((off/pages+uint32(val))%pages)
			copy(b[to*fx.ps:(to+1)*fx.ps], fx.file[from*fx.ps:(from+1)*fx.ps])
			checkDamaged(t, fx, b, to*fx.ps, (to+1)*fx.ps, false)
		case 3:
			v := fx.variants[int(off)%len(fx.variants)]
			if _, _, err := openDamaged(t, v); !errors.Is(err, boltstore.ErrCorrupt) || !strings.Contains(err.Error(), "lacks its") {
				t.Fatalf("a namespace without one of its buckets: %v, want ErrCorrupt", err)
			}
		}
	})
}

// Damage of each kind is contained: truncations, an empty file,
// and flips anywhere fail with ErrCorrupt naming the file.
func TestDamagedFile(t *testing.T) {
	fx := getFixture(t)
	for _, size := range []int{0, 8 << 10, 16 << 10, int(fx.used) - 1} {
		t.Run(fmt.Sprintf("truncated to %d", size), func(t *testing.T) {
			_, path, err := openDamaged(t, fx.file[:size])
			if !errors.Is(err, boltstore.ErrCorrupt) || !strings.Contains(err.Error(), path) {
				t.Fatalf("open: %v, want ErrCorrupt naming %s", err, path)
			}
		})
	}
	t.Run("pages zeroed", func(t *testing.T) {
		for page := int64(0); page < fx.used/fx.ps; page += 1 + page/4 {
			b := bytes.Clone(fx.file)
			clear(b[page*fx.ps : (page+1)*fx.ps])
			checkDamaged(t, fx, b, page*fx.ps, (page+1)*fx.ps, false)
		}
	})
	t.Run("flips", func(t *testing.T) {
		for i := int64(7); i < fx.used; i += fx.used / 24 {
			b := bytes.Clone(fx.file)
			b[i] ^= 0x5a
			checkDamaged(t, fx, b, i, i+1, false)
		}
	})
}

// changeState returns a copy of the fixture with its state record set to
// what fn makes of it.
func changeState(t *testing.T, fn func([]byte) []byte) []byte {
	t.Helper()
	fx := getFixture(t)
	b, err := rewrite(fx.file, func(tx *bolt.Tx) error {
		meta := boltstore.NamespaceBucket(tx, fixtureNS).Bucket(boltstore.MetaBucket)
		return meta.Put(boltstore.StateKey, fn(bytes.Clone(meta.Get(boltstore.StateKey))))
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A damaged state record is contained: an ErrCorrupt naming file and
// record, never a huge allocation; a wrong dimension keeps the units.
func TestDamagedState(t *testing.T) {
	fx := getFixture(t)
	setDim := func(dim int64) func([]byte) []byte {
		return func(b []byte) []byte {
			var st map[string]any
			if err := json.Unmarshal(b, &st); err != nil {
				t.Fatal(err)
			}
			st["Dim"] = dim
			out, _ := json.Marshal(st)
			return out
		}
	}
	for name, fn := range map[string]func([]byte) []byte{
		"flipped byte":    func(b []byte) []byte { b[len(b)/3] ^= 0x20; b[0] = '['; return b },
		"huge Dim":        setDim(4000000000),
		"negative Dim":    setDim(-3),
		"bad quantile":    func(b []byte) []byte { return bytes.Replace(b, []byte(`"N":`), []byte(`"N":-7,"x":`), 1) },
		"not JSON at all": func([]byte) []byte { return []byte{0xff, 0x00} },
	} {
		t.Run(name, func(t *testing.T) {
			_, path, err := openDamaged(t, changeState(t, fn))
			if !errors.Is(err, boltstore.ErrCorrupt) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "state record") {
				t.Fatalf("open: %v, want ErrCorrupt naming %s and the state record", err, path)
			}
		})
	}
	t.Run("wrong Dim", func(t *testing.T) {
		m, _, err := openDamaged(t, changeState(t, setDim(7)))
		if err != nil {
			t.Fatal(err)
		}
		if got := stored(m); len(got) != len(fx.texts) {
			t.Fatalf("a wrong dimension kept %d of %d units", len(got), len(fx.texts))
		}
		save(t, m, "Freya moved to Porto.", "Noted.")
	})
}

// changeRecord returns a copy of the fixture with one stored record (the
// first core one) changed by fn, and the text of its unit.
func changeRecord(t *testing.T, fn func(store.Record) []byte) ([]byte, string) {
	t.Helper()
	fx := getFixture(t)
	var text string
	b, err := rewrite(fx.file, func(tx *bolt.Tx) error {
		units := boltstore.NamespaceBucket(tx, fixtureNS).Bucket(boltstore.UnitsBucket)
		k, v := units.Cursor().First()
		r, err := boltstore.DecodeRecord(k, v)
		if err != nil {
			return err
		}
		text = fx.bySeq[r.Seq]
		return units.Put(bytes.Clone(k), fn(r))
	})
	if err != nil {
		t.Fatal(err)
	}
	return b, text
}

// One non-finite number in one record costs that number: the unit opens
// with it repaired, and writing it back, and later writes, succeed.
func TestNaNRecord(t *testing.T) {
	b, text := changeRecord(t, func(r store.Record) []byte {
		r.LogP = math.NaN()
		r.Delta = math.Inf(1)
		return boltstore.EncodeRecord(r)
	})
	m, _, err := openDamaged(t, b)
	if err != nil {
		t.Fatal(err)
	}
	if !stored(m)[text] {
		t.Fatalf("the unit with a NaN priority is gone")
	}
	for i := range 20 {
		save(t, m, fmt.Sprintf("%s again, turn %d.", text, i), "Noted.")
		load(t, m, text)
	}
	if err := m.Reward(bg, 1); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
}

// An undecodable record costs that record, logged once with its key.
func TestUndecodableRecordLogged(t *testing.T) {
	fx := getFixture(t)
	b, text := changeRecord(t, func(store.Record) []byte { return []byte{boltstore.RecordVersion, 9, 1, 2} })
	var buf bytes.Buffer
	var mu sync.Mutex
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(lockedWriter{&mu, &buf}, nil)))
	defer slog.SetDefault(old)
	m, path, err := openDamaged(t, b)
	if err != nil {
		t.Fatal(err)
	}
	got := stored(m)
	if got[text] || len(got) != len(fx.texts)-1 {
		t.Fatalf("kept %d of %d units, the damaged one %v", len(got), len(fx.texts), got[text])
	}
	load(t, m, text)
	m.Close()
	mu.Lock()
	defer mu.Unlock()
	logs := buf.String()
	if n := strings.Count(logs, "skipping a damaged record"); n != 1 || !strings.Contains(logs, path) || !strings.Contains(logs, "key=") {
		t.Fatalf("the damaged record was logged %d times:\n%s", n, logs)
	}
}

// What a memory and the store it opened skip goes to the memory's
// logger (option.WithLogger), not the default one.
func TestMemoryLogger(t *testing.T) {
	b, text := changeRecord(t, func(store.Record) []byte { return []byte{boltstore.RecordVersion, 9, 1, 2} })
	var mine, def bytes.Buffer
	var mu sync.Mutex
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(lockedWriter{&mu, &def}, nil)))
	defer slog.SetDefault(old)
	dir, _ := writeStore(t, b)
	m, err := dmem.New(bg, append(fixtureOptions(dir), option.WithLogger(slog.New(slog.NewTextHandler(lockedWriter{&mu, &mine}, nil))))...)
	if err != nil {
		t.Fatal(err)
	}
	load(t, m, text)
	m.Close()
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(mine.String(), "skipping a damaged record") || def.Len() > 0 {
		t.Fatalf("WithLogger's logger got %q, the default one %q", mine.String(), def.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// A second open in this process says so and points to WithStore; waiting
// for another process's lock ends with New's context.
func TestOpenInUse(t *testing.T) {
	dir := t.TempDir()
	m := newMemory(t, dmem.WithPath(dir))
	_, err := dmem.New(bg, dmem.WithPath(dir))
	if !errors.Is(err, boltstore.ErrInUse) || !strings.Contains(err.Error(), "in this process") || !strings.Contains(err.Error(), "WithStore") {
		t.Fatalf("second open in the process: %v", err)
	}
	if _, err := boltstore.Open(bg, dir); !errors.Is(err, boltstore.ErrInUse) {
		t.Fatalf("Open of an open file: %v", err)
	}
	m.Close()

	// Another process's lock: a lock on another open file of it.
	f, err := os.OpenFile(filepath.Join(dir, boltstore.FileName), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Skipf("flock: %v", err)
	}
	ctx, cancel := context.WithTimeout(bg, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = dmem.New(ctx, dmem.WithPath(dir))
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Fatalf("open while another process holds the lock: %v after %v, want the context's deadline", err, time.Since(start))
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	m2 := newMemory(t, dmem.WithPath(dir))
	m2.Close()
}

// A zero-length file is damage, not an empty memory: dmem creates its
// file whole and never leaves an empty one.
func TestEmptyFile(t *testing.T) {
	_, path, err := openDamaged(t, nil)
	if !errors.Is(err, boltstore.ErrCorrupt) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("open of an empty file: %v", err)
	}
	dir := t.TempDir()
	m := newMemory(t, dmem.WithPath(dir))
	m.Close()
	matches, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(matches) != 1 {
		t.Fatalf("creating a store left %v", matches)
	}
}

// A namespace past bbolt's key limit is refused as invalid input, before
// any retry; one within it is stored.
func TestBoltNamespaceLimit(t *testing.T) {
	s, err := boltstore.Open(bg, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	long := engram.Namespace{User: strings.Repeat("u", bolt.MaxKeySize)}
	if err := s.Commit(bg, long, []store.Op{store.Term("x", 1)}); !errors.Is(err, engram.ErrInvalidInput) || len(err.Error()) > 300 {
		t.Fatalf("commit to a namespace over the limit: %.300v", err)
	}
	ok := engram.Namespace{User: strings.Repeat("u", bolt.MaxKeySize-16)}
	if err := s.Commit(bg, ok, []store.Op{store.Term("x", 1)}); err != nil {
		t.Fatalf("commit to a namespace within the limit: %.300v", err)
	}
}

// A file bbolt wrote without syncing its freelist is not damaged.
func TestNoFreelistSync(t *testing.T) {
	fx := getFixture(t)
	dir, path := writeStore(t, fx.file)
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, NoFreelistSync: true})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		return boltstore.NamespaceBucket(tx, fixtureNS).Bucket(boltstore.TermsBucket).Put([]byte("zebra"), []byte{2})
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	m, err := dmem.New(bg, fixtureOptions(dir)...)
	if err != nil {
		t.Fatalf("open of a file without a synced freelist: %v", err)
	}
	defer m.Close()
	if got := stored(m); len(got) != len(fx.texts) {
		t.Fatalf("kept %d of %d units", len(got), len(fx.texts))
	}
}
