package engram

// Features are the cheap facts about a unit that decide how much its loss
// would hurt. All of them are computed by the memory; a [Scorer] weighs them.
type Features struct {
	// Relevance is the unit's relevance to the current query: 0 for none,
	// 1 for the best match on its own words, and more when its neighbours
	// match too or the question names its speaker (engram's measure,
	// internal/relevance, reaches about 3). Never negative.
	Relevance float64
	// Recency is 1 for the newest unit and decays towards 0 with age.
	Recency float64
	// Redundancy is the highest similarity, in [0, 1], to another unit among
	// those competing for the budget; memories leave it 0 for the rest.
	Redundancy float64
	// Tokens is the unit's token cost.
	Tokens int
	// Role says who produced the unit.
	Role Role
	// Flags mark names, numbers, dates, directives and pinning.
	Flags Flags
	// Retrieved counts the loads that kept the unit.
	Retrieved int
	// AgeSteps is how many units were saved after this one.
	AgeSteps int64
	// Surprise is the unit's reward prediction error (or novelty), signed.
	Surprise float64
}

// Scorer turns a unit's features into a non-negative base utility: the
// distortion that losing the unit would cause if nothing like it were kept.
// Implementations must be safe for concurrent use.
type Scorer interface {
	Score(f Features) float64
}

// ScorerFunc adapts a function to the [Scorer] interface.
type ScorerFunc func(f Features) float64

// Score calls f.
func (s ScorerFunc) Score(f Features) float64 { return s(f) }

// Explainer is a [Scorer] that can split a score into named parts, so that
// a memory's Explain can show why a unit scored as it did.
type Explainer interface {
	Contributions(f Features) map[string]float64
}
