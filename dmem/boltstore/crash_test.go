package boltstore_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tmc/langchaingo/schema"

	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/option"
)

const crashEnv = "DMEM_CRASH_DIR"

// crashOptions opens the crash test's memory in dir with the hashed
// embedder alone: durability does not depend on the vectors, and each child
// process would otherwise decode the GloVe table again, which under -race
// takes seconds a round.
func crashOptions(t *testing.T, dir string) []dmem.Option {
	e, err := embed.New(embed.WithGloVeShare(0))
	if err != nil {
		t.Fatal(err)
	}
	return []dmem.Option{dmem.WithPath(dir), option.WithEmbedder(e)}
}

// TestCrashChild is the child process of TestCrashSafety: it writes to the
// memory in the directory crashEnv names from two goroutines, printing
// "ack <id> <quoted text>" after each commit returns, until it is killed.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashEnv)
	if dir == "" {
		t.Skip("child process of TestCrashSafety")
	}
	round, _ := strconv.Atoi(os.Getenv("DMEM_CRASH_ROUND"))
	m, err := dmem.New(bg, crashOptions(t, dir)...)
	if err != nil {
		fmt.Println("open failed:", err)
		os.Exit(3)
	}
	var out sync.Mutex
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(round), uint64(w)))
			for k := 0; ; k++ {
				docs := make([]schema.Document, 1+r.IntN(3))
				for i := range docs {
					docs[i].PageContent = fmt.Sprintf("round %d writer %d item %d: %s paid %d for %s", round, w, k,
						choose(r, fxNames), r.IntN(1000), choose(r, fxDishes))
				}
				ids, err := m.AddDocuments(bg, docs)
				if err != nil {
					fmt.Println("write failed:", err)
					os.Exit(4)
				}
				out.Lock()
				for i, id := range ids {
					fmt.Printf("ack %s %q\n", id, docs[i].PageContent)
				}
				out.Unlock()
				if r.IntN(4) == 0 {
					if err := m.Reward(bg, r.NormFloat64()); err != nil {
						fmt.Println("reward failed:", err)
						os.Exit(5)
					}
				}
			}
		}()
	}
	wg.Wait()
}

// Twenty times, a child process writing to a durable memory is killed with
// SIGKILL at a random moment (sometimes while it is still opening); every
// write it acknowledged is there on reopen, and the memory always opens.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(42, 0))
	acked := map[string]string{}
	for round := range 20 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
		cmd.Env = append(os.Environ(), crashEnv+"="+dir, fmt.Sprintf("DMEM_CRASH_ROUND=%d", round))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 1024)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		var got []string
		if round%4 == 3 {
			time.Sleep(time.Duration(r.IntN(150)) * time.Millisecond) // maybe while it opens
		} else {
			select { // wait for the first acknowledgement, then a random while
			case l, ok := <-lines:
				if ok {
					got = append(got, l)
				}
			case <-time.After(60 * time.Second):
				// A liveness guard, not a speed test: under -race on a
				// loaded machine the child's first write (opening a grown
				// file, decoding the word vectors) has taken over 10 s.
				t.Fatalf("round %d: child acknowledged nothing in 60 s", round)
			}
			time.Sleep(time.Duration(r.IntN(200)) * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		for l := range lines {
			got = append(got, l)
		}
		cmd.Wait()
		n := 0
		for _, l := range got {
			f := strings.SplitN(l, " ", 3)
			if len(f) != 3 || f[0] != "ack" {
				t.Fatalf("round %d: child said %q", round, l)
			}
			text, err := strconv.Unquote(f[2])
			if err != nil {
				continue // cut off by the kill: never acknowledged
			}
			acked[f[1]] = text
			n++
		}

		m, err := dmem.New(bg, crashOptions(t, dir)...)
		if err != nil {
			t.Fatalf("round %d: reopen: %v", round, err)
		}
		for id, text := range acked {
			u, route, err := m.Unit(id)
			if err != nil || u.Text != text || route != dmem.RouteCore {
				t.Fatalf("round %d: acknowledged %s %q: got %q in %s, %v", round, id, text, u.Text, route, err)
			}
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: %d acknowledged this round, %d in all, all present", round, n, len(acked))
	}
}
