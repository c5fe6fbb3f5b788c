package engram_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// maxResident is the most a process that uses both backends with their
// default options may hold resident after its first load: 40 MB, of which
// about 9 are resident before anything is used (the runtime, and the code
// of engram, langchaingo and chromem-go).
const maxResident = 40_000_000

// TestResidentMemory builds testdata/footprint, an ordinary program that
// saves a few turns in a ratedistortion.Buffer and an in-memory
// dmem.Memory, both with default options, and loads once from each; it
// runs the program three times and checks the largest resident set it
// reports after the load (VmRSS, read from /proc without collecting
// garbage first).
func TestResidentMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	if testing.Short() {
		t.Skip("slow: builds a program")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	bin := filepath.Join(t.TempDir(), "footprint")
	if msg, err := exec.Command(goTool, "build", "-o", bin, "./testdata/footprint").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, msg)
	}
	var worst map[string]int64
	for range 3 {
		cmd := exec.Command(bin)
		// The runtime's defaults, whatever the test's environment says.
		cmd.Env = append(os.Environ(), "GOGC=", "GOMEMLIMIT=")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("footprint: %v\n%s", err, out)
		}
		m := parseFootprint(t, out)
		if worst == nil || m["load.VmRSS"] > worst["load.VmRSS"] {
			worst = m
		}
	}
	t.Logf("resident at start %.1f MB, after the load %.1f MB (anonymous %.1f, file-backed %.1f); heap in use %.1f MB",
		mb(worst["start.VmRSS"]), mb(worst["load.VmRSS"]), mb(worst["load.RssAnon"]), mb(worst["load.RssFile"]),
		float64(worst["load.HeapInuse"])/1e6)
	if rss := worst["load.VmRSS"] * 1024; rss > maxResident {
		t.Errorf("resident set after the first load %.1f MB, want ≤ %.0f MB", float64(rss)/1e6, maxResident/1e6)
	}
}

// mb converts kB, as /proc reports them (KiB), to MB.
func mb(kB int64) float64 { return float64(kB*1024) / 1e6 }

// parseFootprint reads the program's "name value" lines.
func parseFootprint(t *testing.T, out []byte) map[string]int64 {
	t.Helper()
	m := make(map[string]int64)
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		name, v, ok := strings.Cut(sc.Text(), " ")
		n, err := strconv.ParseInt(v, 10, 64)
		if !ok || err != nil {
			t.Fatalf("footprint printed %q", sc.Text())
		}
		m[name] = n
	}
	for _, name := range []string{"start.VmRSS", "load.VmRSS", "load.RssAnon", "load.RssFile", "load.HeapInuse"} {
		if _, ok := m[name]; !ok {
			t.Fatalf("footprint printed no %s:\n%s", name, out)
		}
	}
	return m
}
