package engram

import (
	"bufio"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// eachImport calls fn with every import of every non-test Go file below
// root, skipping the directories skip names (paths from the module root).
func eachImport(t *testing.T, root string, skip []string, fn func(file, imp string)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && slices.Contains(skip, path):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			fn(path, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestInternalImportsNoBackend: the shared code under internal/ sits below
// both memories and imports neither, so that either can be read, changed
// or dropped on its own.
func TestInternalImportsNoBackend(t *testing.T) {
	eachImport(t, "internal", nil, func(file, p string) {
		for _, backend := range []string{"github.com/engram-go/engram/dmem", "github.com/engram-go/engram/ratedistortion"} {
			if p == backend || strings.HasPrefix(p, backend+"/") {
				t.Errorf("%s imports %s", file, p)
			}
		}
	})
}

// TestLibraryBuildsNoAgentFramework: the library's own packages use
// langchaingo's schema, model, embedding and callback interfaces, never
// its chains, agents, prompt templates or tools, whose template engine and
// calculator bring a tree of dependencies (a terminal package among them)
// into every program built with them. The modules of their own may.
func TestLibraryBuildsNoAgentFramework(t *testing.T) {
	heavy := []string{"github.com/tmc/langchaingo/chains", "github.com/tmc/langchaingo/agents", "github.com/tmc/langchaingo/prompts", "github.com/tmc/langchaingo/tools"}
	skip := []string{"examples", "cmd", filepath.Join("adapters", "langchaingo", "chaintest"), filepath.Join("adapters", "eino"), filepath.Join("dmem", "pgstore")}
	eachImport(t, ".", skip, func(file, p string) {
		if slices.Contains(heavy, p) {
			t.Errorf("%s imports %s", file, p)
		}
	})
}

// TestModuleGraphStaysLean: a project that requires engram finds in its
// module graph none of what the evaluation harness, the examples and the
// chain checks need: no plotting, no progress bar, no terminal package.
// Those live in modules of their own; a test importing langchaingo's
// chains or tools here would bring the terminal package back.
func TestModuleGraphStaysLean(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		t.Skipf("no go command beside the toolchain: %v", err)
	}
	cmd := exec.Command(gobin, "mod", "graph")
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly", "GOPROXY=off")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go mod graph: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		for _, m := range []string{"gonum.org/v1/plot@", "github.com/schollz/progressbar/", "golang.org/x/term@"} {
			if _, dep, ok := strings.Cut(line, " "); ok && strings.HasPrefix(dep, m) {
				t.Errorf("the module graph holds %s", line)
			}
		}
	}
}

// TestMemoryFilesStayReadable: package dmem, without the stores that live
// in packages of their own, stays under 4,500 lines, and none of its files
// or ratedistortion's is over about 600.
func TestMemoryFilesStayReadable(t *testing.T) {
	total := 0
	for _, dir := range []string{"dmem", "ratedistortion"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			n := lines(t, path)
			if n > 650 {
				t.Errorf("%s has %d lines, want about 600 at most", path, n)
			}
			if dir == "dmem" {
				total += n
			}
		}
	}
	if total >= 4500 {
		t.Errorf("package dmem has %d lines outside tests, want under 4,500", total)
	}
}

func lines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}
