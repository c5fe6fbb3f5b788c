package boltstore

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/engram-go/engram"
)

// Option configures [Open]. The zero options are the defaults.
type Option func(*options)

type options struct {
	logger    *slog.Logger
	syncEvery time.Duration
}

// WithLogger sets where the store logs the damaged records it skips, once
// each. Default: slog.Default(); nil keeps the default.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) {
		if l != nil {
			o.logger = l
		}
	}
}

// WithSyncEvery relaxes durability: a commit is written to the file but
// synced to disk at most once per every, at a later commit, and at Close.
// A process that crashes or is killed loses nothing (its writes are the
// system's); a power loss or a crash of the system may lose the commits of
// the last interval, or damage the file, which [Salvage] then copies from.
// Default 0: every commit is synced before Commit returns. It must not be
// negative.
func WithSyncEvery(every time.Duration) Option { return func(o *options) { o.syncEvery = every } }

func (o *options) validate() error {
	if o.syncEvery < 0 {
		return fmt.Errorf("boltstore: open: sync interval %v < 0: %w", o.syncEvery, engram.ErrInvalidOption)
	}
	return nil
}
