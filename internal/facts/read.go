package facts

import (
	"context"
	"slices"

	"github.com/engram-go/engram"
	"golang.org/x/sync/errgroup"
)

// ReadLimit is how many extractor calls one save makes at once.
const ReadLimit = 4

// Read has ex read the facts of the units of one save, one call per unit
// and at most ReadLimit calls at once, and returns each unit's facts
// (Clean) and the extractor's error on it. A unit with read[i] false is
// not read: it keeps us[i].Facts.
//
// A save is read as turns: a human message and the units after it up to
// the next human message. The turns are read at once; the units of one
// turn in order, each told known, then what the units before it in the
// save carried in, then what the units before it in its turn stated
// (Stated): a reply names a slot the way its question did.
//
// A unit the extractor failed on (an error, a panic, a deadline: the
// caller's guard turns each into an error) has no facts and tells the
// units after it nothing; the save goes on.
func Read(ctx context.Context, ex engram.FactExtractor, us []engram.Unit, read []bool, known []engram.Fact) ([][]engram.Fact, []error) {
	fs := make([][]engram.Fact, len(us))
	errs := make([]error, len(us))
	var g errgroup.Group
	g.SetLimit(ReadLimit)
	carried := known // what the units before a turn carried in, after known
	for start := 0; start < len(us); {
		end := start + 1
		for end < len(us) && us[end].Role != engram.RoleHuman {
			end++
		}
		first, k := start, carried
		g.Go(func() error {
			for i := first; i < end; i++ {
				if read[i] {
					fs[i], errs[i] = readOne(ctx, ex, us[i], k)
				} else {
					fs[i] = us[i].Facts
				}
				k = Stated(fs[i], k)
			}
			return nil
		})
		for i := start; i < end; i++ {
			if !read[i] {
				carried = Stated(us[i].Facts, carried)
			}
		}
		start = end
	}
	g.Wait()
	return fs, errs
}

// readOne has ex read u, told a copy of known.
func readOne(ctx context.Context, ex engram.FactExtractor, u engram.Unit, known []engram.Fact) ([]engram.Fact, error) {
	u.Embedding = nil // the extractor reads text; the vector is the memory's
	fs, err := ex(ctx, u, slices.Clone(known))
	if err != nil {
		return nil, err
	}
	return Clean(fs), nil
}
