package engram

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// processWords are words about how the project was run, not about what it
// is: a user has no issue numbers to look up.
var processWords = regexp.MustCompile(`(?i)\bissue\s+[0-9]+|\bissue[0-9]+|\bthis\s+stop\b`)

// TestNoProcessWords: no Go or Markdown file of the module names an issue
// or a work stop; code, docs and test names say what a thing is.
func TestNoProcessWords(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".md")) {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			if m := processWords.FindString(sc.Text()); m != "" {
				t.Errorf("%s:%d: %q", path, n, m)
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadme: the README reads in five minutes (at most 250 lines), says
// how to get the module, and every file it links to exists.
func TestReadme(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if n := strings.Count(s, "\n"); n > 250 {
		t.Errorf("README.md has %d lines, want at most 250: move detail to docs/", n)
	}
	if !strings.Contains(s, "go get github.com/engram-go/engram") {
		t.Error("README.md does not say how to get the module")
	}
	checkLinks(t, "README.md", s)
	for _, doc := range []string{"docs/measurements.md", "docs/upgrading.md", "docs/development.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		checkLinks(t, doc, string(b))
	}
	if m, _ := os.ReadFile("docs/measurements.md"); !strings.Contains(string(m), "## Learning from rewards") {
		t.Error("docs/measurements.md has no section for learning from rewards")
	}
}

// checkLinks reports the relative links of a Markdown file that name no file.
func checkLinks(t *testing.T, file, s string) {
	t.Helper()
	for _, m := range regexp.MustCompile(`\]\(([^)#]+)(#[^)]*)?\)`).FindAllStringSubmatch(s, -1) {
		target := m[1]
		if strings.Contains(target, "://") {
			continue
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(file), target)); err != nil {
			t.Errorf("%s links to %s, which does not exist", file, target)
		}
	}
}

// TestLicense: the code's licence and the embedded tables' terms are at
// the top level, each table named with its terms.
func TestLicense(t *testing.T) {
	lic, err := os.ReadFile("LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(lic), "MIT License") {
		t.Error("LICENSE is not the MIT licence")
	}
	notice, err := os.ReadFile("NOTICE")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"internal/glove/table.bin", "PDDL", "internal/glove/LICENSE",
		"internal/lexicon/table.bin.gz", "WordNet 3.0", "internal/lexicon/LICENSE-WordNet"} {
		if !strings.Contains(string(notice), w) {
			t.Errorf("NOTICE does not name %s", w)
		}
	}
}

// TestModuleNeedsNoToolingDeps: the library's go.mod requires nothing for
// plotting, progress bars or terminals, which only the evaluation command
// (its own module) and a terminal program need. golang.org/x/term may
// stand as an indirect requirement only: langchaingo's own go.mod requires
// the prompt templates' engine and golang.org/x/crypto, each of which
// requires it, so every module that requires langchaingo has it in its
// graph; engram's library builds none of it
// (TestLibraryBuildsNoAgentFramework).
func TestModuleNeedsNoToolingDeps(t *testing.T) {
	b, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		mod := f[0]
		if mod == "require" && len(f) > 1 {
			mod = f[1]
		}
		switch {
		case strings.HasPrefix(mod, "gonum.org/v1/plot"), strings.HasPrefix(mod, "github.com/schollz/progressbar"):
			t.Errorf("go.mod requires %s", mod)
		case mod == "golang.org/x/term" && !strings.Contains(line, "// indirect"):
			t.Errorf("go.mod requires golang.org/x/term directly: %s", line)
		}
	}
}
