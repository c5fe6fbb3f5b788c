package main

import (
	"context"
	"errors"
	"slices"
)

// errNoIdeas reports that a proposer has nothing left to try.
var errNoIdeas = errors.New("no more fixes to try")

// patch is a proposed change to a task.
type patch struct {
	// name identifies the fix in memory: a catalogue name, or llm-N.
	name string
	// about describes the change when the name does not, as for a model's.
	about string
	// files are the changed sources, whole.
	files map[string]string
}

// problem is what a proposer is shown.
type problem struct {
	task task
	// err is the first error go test reported for the unpatched task.
	err string
	// tried are the fixes already tested on this task, all failed.
	tried []string
	// recalled is what memory returned for the error, best match first.
	recalled []recollection
}

// proposer proposes the next patch for a problem, or errNoIdeas.
type proposer interface {
	propose(ctx context.Context, p problem) (patch, error)
}

// catalogueProposer proposes catalogue fixes that apply to the code: first
// those memory says worked on a similar error, then the untried rest in
// catalogue order, and last those memory says failed.
type catalogueProposer struct{}

func (catalogueProposer) propose(_ context.Context, p problem) (patch, error) {
	for _, name := range order(p.recalled) {
		if slices.Contains(p.tried, name) {
			continue
		}
		f, _ := fixNamed(name)
		if files := f.apply(p.task); len(files) > 0 {
			return patch{name: name, files: files}, nil
		}
	}
	return patch{}, errNoIdeas
}

// order ranks the catalogue's fix names by what was recalled.
func order(recalled []recollection) []string {
	var worked, failed []string
	for _, r := range recalled {
		if _, ok := fixNamed(r.fix); !ok || slices.Contains(worked, r.fix) || slices.Contains(failed, r.fix) {
			continue
		}
		if r.worked {
			worked = append(worked, r.fix)
		} else {
			failed = append(failed, r.fix)
		}
	}
	names := worked
	for _, f := range catalogue {
		if !slices.Contains(worked, f.name) && !slices.Contains(failed, f.name) {
			names = append(names, f.name)
		}
	}
	return append(names, failed...)
}
