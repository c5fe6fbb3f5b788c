package dmem

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/engram-go/engram/dmem/boltstore"
)

// A full disk costs the saves that found it full, never the memory: on a
// small tmpfs (root only; skipped elsewhere) filled by another file, saves
// fail with ErrStore, and once the file is removed they succeed again, and
// every acknowledged one is there after reopening.
func TestFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=2m"); err != nil {
		t.Skipf("mount tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, syscall.MNT_DETACH) })
	dir := filepath.Join(mnt, "store")
	m, err := New(bg, WithPath(dir), WithShortTerm(500))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.w.Backoff = nil
	acked := make(map[string]bool)
	saveN := func(i int) error {
		in := fmt.Sprintf("Fact %d: %s keeps the spare key of locker %d under the %s.", i, fxNames[i%len(fxNames)], i, fxPets[i%len(fxPets)])
		err := m.SaveContext(bg, map[string]any{"input": in}, map[string]any{"output": "Noted."})
		if err == nil {
			acked[in] = true
		}
		return err
	}
	for i := range 5 {
		if err := saveN(i); err != nil {
			t.Fatal(err)
		}
	}
	filler := filepath.Join(mnt, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			break
		}
	}
	f.Close()
	failed := 0
	for i := 5; i < 400 && failed < 5; i++ {
		if err := saveN(i); err != nil {
			if !errors.Is(err, ErrStore) || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), filepath.Join(dir, boltstore.FileName)) {
				t.Fatalf("save %d on a full disk: %v, want ErrStore wrapping ENOSPC, naming the file", i, err)
			}
			failed++
		}
	}
	if failed == 0 {
		t.Fatal("no save failed on a full disk")
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	for i := 1000; i < 1020; i++ {
		if err := saveN(i); err != nil {
			t.Fatalf("save %d after space was freed: %v", i, err)
		}
	}
	if err := m.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	m2 := newMemory(t, WithPath(dir), WithShortTerm(500))
	got := stored(m2)
	for in := range acked {
		if !got[in] {
			t.Errorf("acknowledged save %q is missing", in)
		}
	}
	m2.Close()
}
