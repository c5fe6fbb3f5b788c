package engram

import (
	"bufio"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
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
// langchaingo's memory, schema and model interfaces, never its chains,
// agents or prompt templates, whose template engine brings a tree of
// dependencies (a terminal package among them) into every program built
// with them. Examples, the command-line tools and memorytest, which runs a
// memory inside real chains, may.
func TestLibraryBuildsNoAgentFramework(t *testing.T) {
	heavy := []string{"github.com/tmc/langchaingo/chains", "github.com/tmc/langchaingo/agents", "github.com/tmc/langchaingo/prompts"}
	skip := []string{"examples", "cmd", filepath.Join("adapters", "langchaingo", "memorytest"), filepath.Join("adapters", "eino")}
	eachImport(t, ".", skip, func(file, p string) {
		if slices.Contains(heavy, p) {
			t.Errorf("%s imports %s", file, p)
		}
	})
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
