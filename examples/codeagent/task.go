package main

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

//go:embed testdata/tasks
var bundled embed.FS

// sequence is the order the bundled tasks are solved in: each family (loop
// bounds, format verbs, nil maps) appears first before it repeats, so that
// what is learnt on one task can serve a later, related one.
var sequence = []string{"sum", "greet", "pairs", "wordcount", "label", "increasing"}

// task is a small Go package with a failing test.
type task struct {
	name  string
	files map[string]string // file name → content, tests included
}

// loadTasks reads the bundled tasks in sequence order.
func loadTasks() ([]task, error) {
	var ts []task
	for _, name := range sequence {
		dir := path.Join("testdata/tasks", name)
		entries, err := fs.ReadDir(bundled, dir)
		if err != nil {
			return nil, fmt.Errorf("load task %s: %w", name, err)
		}
		t := task{name: name, files: map[string]string{}}
		for _, e := range entries {
			b, err := fs.ReadFile(bundled, path.Join(dir, e.Name()))
			if err != nil {
				return nil, fmt.Errorf("load task %s: %w", name, err)
			}
			t.files[e.Name()] = string(b)
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// sources returns the names of the files a patch may change: the non-test
// Go files, sorted.
func (t task) sources() []string {
	var names []string
	for name := range t.files {
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// write lays the task out in dir as a module of its own, with files in place
// of the task's where given. The module requires nothing, so go test needs no
// network.
func (t task) write(dir string, files map[string]string) error {
	mod := fmt.Sprintf("module example.com/%s\n\ngo 1.22\n", t.name)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		return err
	}
	for name, content := range t.files {
		if c, ok := files[name]; ok {
			content = c
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}
