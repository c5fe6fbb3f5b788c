package gate

import "github.com/engram-go/engram"

// Prior scores a unit with a base scorer, corrected by what the gate has
// learned: Prior(f) × 2σ(w·φ(f)). An untrained gate (all weights 0) gives
// σ = ½ and leaves the base scores as they are; learning then raises the
// units that tend to be needed later and lowers the others, without having to
// relearn from nothing what the base already knows, such as that a message
// relevant to the question is worth keeping.
//
// It is how the learned gate drives ratedistortion: the buffer's hand-set
// ratedistortion.DefaultWeights carry the per-question relevance the gate's
// question-independent features cannot.
type Prior struct {
	// Base is the scorer being corrected.
	Base engram.Scorer
	// Gate is the learned correction.
	Gate *Gate
}

var (
	_ engram.Scorer    = Prior{}
	_ engram.Explainer = Prior{}
)

// Score returns Base.Score(f) × 2·Gate.Score(f). A nil Base scores 1; a
// nil Gate leaves Base unchanged.
func (p Prior) Score(f engram.Features) float64 {
	return p.base(f) * p.correction(f)
}

func (p Prior) base(f engram.Features) float64 {
	if p.Base == nil {
		return 1
	}
	return p.Base.Score(f)
}

func (p Prior) correction(f engram.Features) float64 {
	if p.Gate == nil {
		return 1
	}
	return 2 * p.Gate.Score(f)
}

// Contributions returns the base score under "prior" (and the base's own
// parts, prefixed "prior.", when it explains itself) and the gate's parts on
// the logit scale.
func (p Prior) Contributions(f engram.Features) map[string]float64 {
	out := make(map[string]float64)
	if p.Gate != nil {
		out = p.Gate.Contributions(f)
	}
	out["prior"] = p.base(f)
	if ex, ok := p.Base.(engram.Explainer); ok {
		for k, v := range ex.Contributions(f) {
			out["prior."+k] = v
		}
	}
	return out
}
