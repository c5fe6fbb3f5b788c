package memopts

import (
	"fmt"

	"github.com/engram-go/engram"
)

// Option is one setting of an engram memory, the type package option
// names: either one every memory takes (made by [Common], it sets
// [Shared]) or one of a single memory's own (made by [Own], it sets that
// memory's options struct). One type serves both, so that one list of
// options builds either memory, as one slog.HandlerOptions serves both
// of slog's handlers; a memory given another's own option refuses it.
type Option struct {
	name   string        // how errors name it: "option.WithTokenBudget"
	common func(*Shared) // a setting every memory takes, or nil
	pkg    string        // the memory an own setting is of
	own    any           // func(*T), T that memory's options
}

// Common returns the option name that sets what set sets in every
// memory's shared options.
func Common(name string, set func(*Shared)) Option {
	return Option{name: name, common: set}
}

// Own returns the option name of memory pkg alone, which sets its
// options struct T.
func Own[T any](pkg, name string, set func(*T)) Option {
	return Option{name: name, pkg: pkg, own: set}
}

// Build applies opts in order to o, a memory's options struct whose
// shared part is shared, then checks them: the shared ones
// ([Shared.Validate]), then the memory's own (check). An empty option
// (the zero Option) and another memory's own option are refused with an
// error wrapping [engram.ErrInvalidOption] that names the option's place
// in the list, not a panic.
func Build[T any](o *T, shared *Shared, opts []Option, check func() error) error {
	for i, opt := range opts {
		if set, ok := opt.own.(func(*T)); ok {
			set(o)
			continue
		}
		switch {
		case opt.common != nil:
			opt.common(shared)
		case opt.own != nil:
			return shared.Invalid("option %d of %d, %s, is an option of %s", i+1, len(opts), opt.name, opt.pkg)
		default:
			return shared.Invalid("option %d of %d is empty", i+1, len(opts))
		}
	}
	if err := shared.Validate(); err != nil {
		return err
	}
	return check()
}

// Apply applies opts to o in order, for a package whose options are
// functions of its own (callbacks); a nil option is refused with an error
// wrapping [engram.ErrInvalidOption] naming pkg, not a panic.
func Apply[O ~func(*T), T any](pkg string, o *T, opts []O) error {
	for i, opt := range opts {
		if opt == nil {
			return fmt.Errorf("%s: option %d of %d is nil: %w", pkg, i+1, len(opts), engram.ErrInvalidOption)
		}
		opt(o)
	}
	return nil
}
