// Package memopts holds what both engram memories take as options: one
// type of option ([Option]), which package option exports with the
// options every memory takes; one struct they set ([Shared]), its
// defaults, one validation, and the guarded calls into what a user plugs
// in (internal/guard), as log/slog's one HandlerOptions serves both of
// its handlers.
//
// Each memory embeds Shared in its own options and adds its policy's:
// ratedistortion its scorer, summariser and long-term tier; dmem its
// store, routing and value model, set by options made with [Own]. Its New
// calls [Build], which applies the options, runs [Shared.Validate] and
// the memory's own check, and that check calls [Shared.Resolve].
package memopts
