// Package memopts holds what both engram memories take as options: one
// struct ([Shared]), its defaults, one validation, and the guarded calls
// into what a user plugs in (internal/guard), as log/slog's one
// HandlerOptions serves both of its handlers.
//
// Each memory embeds Shared in its own options and adds its policy's:
// ratedistortion its scorer, summariser and long-term tier; dmem its
// store, routing and value model. Its With… functions set the fields and
// its New calls [Shared.Validate], then [Shared.Resolve].
package memopts
