package engram

import "context"

// LongTerm is a memory tier below a working context: the units the working
// context lets go (its pool is capped, or they aged out) go down to it, and
// at a load it is asked for what it holds on the query, which then competes
// for the budget with what the working context kept.
// ratedistortion.WithLongTerm takes one; *dmem.Memory is one.
type LongTerm interface {
	// Demote hands the tier units the working context let go, oldest
	// first, with what the working context learned of each. The tier
	// decides what it keeps; a unit the working context found useful
	// (retrieved, rewarded) should be kept.
	Demote(ctx context.Context, units []Demoted) error
	// Recall returns what the tier would show for query within budget
	// tokens, and may add units around them (their neighbouring turns),
	// oldest first, each unit with the ID the tier knows it by, its Seq
	// there (consecutive for neighbouring turns), Text, Role, Time and
	// Flags.
	Recall(ctx context.Context, query string, budget int) ([]Unit, error)
	// Reward passes on a reward that followed a load which showed units the
	// last Recall returned.
	Reward(ctx context.Context, r float64) error
}

// Demoted is a unit leaving a working context for a [LongTerm] tier.
type Demoted struct {
	Unit
	// Retrieved is how many of the working context's loads showed it.
	Retrieved int
	// Reward is the sum of the rewards that followed those loads.
	Reward float64
	// FactsRead reports that the working context's [FactExtractor] read
	// the unit: its Facts are what it found, perhaps none, and a tier with
	// an extractor of its own need not ask again (a model call, say).
	FactsRead bool
}

// Tier says which tier of a two-tier memory a unit came from.
type Tier uint8

// Tiers of a two-tier memory.
const (
	TierWorking  Tier = iota // the working context's own pool
	TierLongTerm             // recalled from the long-term tier (and cached in the pool)
)

// String returns the tier's name: "working" or "long-term".
func (t Tier) String() string {
	switch t {
	case TierWorking:
		return "working"
	case TierLongTerm:
		return "long-term"
	}
	return "unknown"
}
