package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// names returns the names in dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestWriteReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "memory.rd")
	for _, s := range []string{"one", "two"} {
		if err := Write(path, writeString(s)); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != s {
			t.Fatalf("file holds %q, want %q", b, s)
		}
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	if got := names(t, dir); !slices.Equal(got, []string{"memory.rd"}) {
		t.Errorf("dir holds %q", got)
	}
	// A failed write leaves the old file and no temporary one.
	if err := Write(path, func(io.Writer) error { return errors.New("boom") }); err == nil {
		t.Fatal("a failed write succeeded")
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Errorf("after a failed write the file holds %q", b)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"memory.rd"}) {
		t.Errorf("after a failed write the dir holds %q", got)
	}
}

// TestCleanRemovesLeftoversOnly checks that the leftovers of killed writes
// go, and that nothing else does: another file's temporary files, names
// that are not Write's, and a temporary file a running Write holds.
func TestCleanRemovesLeftoversOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "memory.rd")
	keep := []string{"memory.rd.tmp", "memory.rd.tmpx1", "memory.rd.tmp12.bak", "other.rd.tmp123", "memory.rd"}
	gone := []string{"memory.rd.tmp1", "memory.rd.tmp2837465"}
	for _, n := range append(slices.Clone(keep), gone...) {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// A Write in progress: its temporary file, locked.
	live, err := create(dir, "memory.rd")
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if closeFirst {
		t.Skip("no lock here: leftovers are told by their age")
	}
	Clean(path)
	want := append(slices.Clone(keep), filepath.Base(live.Name()))
	slices.Sort(want)
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Errorf("after Clean the dir holds %q, want %q", got, want)
	}
}

// TestConcurrentWrites checks that Writes of one path, at once, each
// succeed and leave one whole file and nothing else.
func TestConcurrentWrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "memory.rd")
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for g := range 8 {
		wg.Go(func() {
			for i := range 5 {
				errs <- Write(path, writeString(fmt.Sprintf("writer %d, write %d", g, i)))
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := names(t, dir); !slices.Equal(got, []string{"memory.rd"}) {
		t.Errorf("dir holds %q", got)
	}
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{
		"m.rd.tmp123": true, "m.rd.tmp": false, "m.rd.tmp12a": false, "m.rd.tmp-1": false, "xm.rd.tmp1": false, "m.rd": false,
	} {
		if got := IsTemp("m.rd", name); got != want {
			t.Errorf("IsTemp(%q) = %v", name, got)
		}
	}
}

// A Write to a directory's path is refused with an error that says so, and
// leaves the directory as it was.
func TestWriteToADirectory(t *testing.T) {
	dir := t.TempDir()
	err := Write(dir, func(w io.Writer) error { _, err := w.Write([]byte("x")); return err })
	if !errors.Is(err, ErrIsDir) || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("Write to a directory: %v", err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("the directory holds %d entries after a refused Write", len(es))
	}
}
