package ratedistortion

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/engram-go/engram/option"
)

// dirNames returns the names in dir, sorted.
func dirNames(t *testing.T, dir string) []string {
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

// TestSaveFileRemovesLeftovers checks that the temporary files crashed
// saves left beside a file go at its next SaveFile or RestoreFile, and
// that other files stay.
func TestSaveFileRemovesLeftovers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "memory.rd")
	b := richBuffer(t, persistOpts()...)
	leftovers := func() {
		for _, n := range []string{"memory.rd.tmp123", "memory.rd.tmp4000000000"} {
			if err := os.WriteFile(filepath.Join(dir, n), []byte("half a save"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	others := []string{"memory.rd.tmp", "memory.rd.tmpnotes", "notes.rd.tmp1"}
	for _, n := range others {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	want := append(slices.Clone(others), "memory.rd")
	slices.Sort(want)
	if runtime.GOOS == "windows" {
		t.Skip("without locks, leftovers go only after an hour")
	}
	leftovers()
	if err := b.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	if got := dirNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("after SaveFile the directory holds %q, want %q", got, want)
	}
	leftovers()
	if _, err := RestoreFile(context.Background(), path, persistOpts()...); err != nil {
		t.Fatal(err)
	}
	if got := dirNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("after RestoreFile the directory holds %q, want %q", got, want)
	}
}

// TestKilledSavesLeaveNothing kills a process that saves in a loop, a few
// times, and checks that the next SaveFile leaves the saved file alone in
// its directory, whole.
func TestKilledSavesLeaveNothing(t *testing.T) {
	if dir := os.Getenv("ENGRAM_SAVE_LOOP_DIR"); dir != "" {
		saveLoop(t, dir)
		return
	}
	if runtime.GOOS == "windows" || testing.Short() {
		t.Skip("kills a child process that saves; no locks on windows")
	}
	dir := t.TempDir()
	for i := range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKilledSavesLeaveNothing$")
		cmd.Env = append(os.Environ(), "ENGRAM_SAVE_LOOP_DIR="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 1) // the child says when it saves
		if _, err := out.Read(buf); err != nil {
			t.Fatalf("child %d: %v", i, err)
		}
		time.Sleep(time.Duration(5+20*i) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
	}
	left := dirNames(t, dir)
	path := filepath.Join(dir, "memory.rd")
	cheap := []Option{option.WithEmbedder(otherEmbedder{}), option.WithTokenCounter(func(s string) int { return len(s) / 4 })}
	b, err := RestoreFile(context.Background(), path, cheap...)
	if errors.Is(err, os.ErrNotExist) {
		b = newBuffer(t, cheap...) // killed before a save ended
	} else if err != nil {
		t.Fatalf("the file the killed saves replaced: %v", err)
	}
	if err := b.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"memory.rd"}) {
		t.Errorf("after the killed saves and one more the directory holds %q", got)
	}
	t.Logf("before the last save the directory held %q", left)
}

// saveLoop saves a large buffer to dir until killed. It embeds and
// counts cheaply, to start fast.
func saveLoop(t *testing.T, dir string) {
	b := newBuffer(t, option.WithEmbedder(otherEmbedder{}), option.WithTokenCounter(func(s string) int { return len(s) / 4 }),
		option.WithTokenBudget(1000))
	for i := range 40 {
		save(t, b, fmt.Sprintf("Filler %d: %s", i, strings.Repeat("lorem ipsum dolor ", 500)), "Ok.")
	}
	fmt.Print("s")
	for {
		if err := b.SaveFile(filepath.Join(dir, "memory.rd")); err != nil {
			t.Fatal(err)
		}
	}
}
