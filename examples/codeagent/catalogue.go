package main

import (
	"regexp"
	"slices"
	"strings"
)

// fix is a catalogue entry: a textual rewrite that repairs one kind of bug
// wherever its pattern occurs.
type fix struct {
	name string
	re   *regexp.Regexp
	repl string // regexp.Expand syntax
}

// catalogue holds the fixes the offline proposer knows, sorted by name: the
// order it tries them in when nothing better is known. Several apply to code
// they do not repair, as real guesses do.
var catalogue = sortedByName([]fix{
	// x, _ := f() → check the error: for a parse that must fail loudly.
	{"check-error", regexp.MustCompile(`(\w+), _ := (.+)\n`), "$1, err := $2\n\tif err != nil {\n\t\treturn 0, err\n\t}\n"},
	// i <= len(xs) → i < len(xs): the loop ran one past the end.
	{"loop-bound", regexp.MustCompile(`(\w+) <= len\(`), "$1 < len("},
	// i := 0; → i := 1;: the loop should skip the first element.
	{"loop-from-one", regexp.MustCompile(`(\w+) := 0; `), "$1 := 1; "},
	// i < len(xs) → i < len(xs)-1: the body reads one element ahead.
	{"loop-lookahead", regexp.MustCompile(`(\w+) < len\((\w+)\);`), "$1 < len($2)-1;"},
	// var m map[K]V → m := make(map[K]V): writes to a nil map panic.
	{"make-map", regexp.MustCompile(`var (\w+) (map\[\w+\]\w+)\n`), "$1 := make($2)\n"},
	// %d → %s: the argument is a string.
	{"verb-s", regexp.MustCompile(`%d`), "%s"},
	// %d → %v: let the argument's type choose.
	{"verb-v", regexp.MustCompile(`%d`), "%v"},
})

func sortedByName(fs []fix) []fix {
	slices.SortFunc(fs, func(a, b fix) int { return strings.Compare(a.name, b.name) })
	return fs
}

// fixNamed returns the catalogue entry called name.
func fixNamed(name string) (fix, bool) {
	i := slices.IndexFunc(catalogue, func(f fix) bool { return f.name == name })
	if i < 0 {
		return fix{}, false
	}
	return catalogue[i], true
}

// apply rewrites the task's sources, returning only the files it changed;
// none when the fix does not apply.
func (f fix) apply(t task) map[string]string {
	changed := map[string]string{}
	for _, name := range t.sources() {
		src := t.files[name]
		if out := f.re.ReplaceAllString(src, f.repl); out != src {
			changed[name] = out
		}
	}
	return changed
}
