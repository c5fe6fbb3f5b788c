package memopts

import (
	"errors"
	"strings"
	"testing"

	"github.com/engram-go/engram"
)

// mine and theirs are two memories' options structs.
type mine struct {
	Shared
	depth int
}

type theirs struct{ Shared }

// TestBuild: options apply in order, shared and own alike; the shared
// ones are checked before the memory's own check runs; another memory's
// own option and the zero Option are refused by their place in the list.
func TestBuild(t *testing.T) {
	depth := func(n int) Option { return Own("mine", "mine.WithDepth", func(o *mine) { o.depth = n }) }
	budget := func(n int) Option { return Common("option.WithTokenBudget", func(s *Shared) { s.Budget = n }) }
	build := func(opts ...Option) (mine, bool, error) {
		o := mine{Shared: valid()}
		checked := false
		err := Build(&o, &o.Shared, opts, func() error { checked = true; return nil })
		return o, checked, err
	}

	o, checked, err := build(depth(1), budget(7), depth(3), budget(9))
	if err != nil || !checked || o.depth != 3 || o.Budget != 9 {
		t.Errorf("got depth %d, budget %d, checked %v, err %v; want the last of each, checked", o.depth, o.Budget, checked, err)
	}
	if _, checked, err := build(budget(0)); !errors.Is(err, engram.ErrInvalidOption) || checked {
		t.Errorf("a budget of 0: err %v, own check ran %v; want ErrInvalidOption before the own check", err, checked)
	}
	other := Own("theirs", "theirs.WithWidth", func(*theirs) {})
	for _, tc := range []struct {
		opts []Option
		want string
	}{
		{[]Option{budget(5), other}, "option 2 of 2, theirs.WithWidth, is an option of theirs"},
		{[]Option{{}, budget(5)}, "option 1 of 2 is empty"},
	} {
		if _, _, err := build(tc.opts...); !errors.Is(err, engram.ErrInvalidOption) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err %v, want ErrInvalidOption saying %q", err, tc.want)
		}
	}
}
