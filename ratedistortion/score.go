package ratedistortion

import (
	"math"

	"github.com/engram-go/engram"
)

// Weights is the hand-set [engram.Scorer]: a unit's utility is a weighted
// sum of its relevance to the query, its recency and its flags, plus a
// small floor so that nothing is worth exactly nothing.
type Weights struct {
	Relevance float64 // per unit of relevance^Sharpness
	Sharpness float64 // exponent on relevance (see engram.Features); 0 means 1
	Recency   float64 // per unit of recency in [0, 1]
	Flag      float64 // per name, number or date flag, at most three counted
	// FlagRelevance multiplies relevance by 1 + FlagRelevance per flag (at
	// most three): of two equally relevant messages, the one holding a
	// name, a number or a date more likely holds the answer.
	FlagRelevance float64
	Directive     float64 // for a "remember …" directive
	Rewarded      float64 // per unit of positive reward earned (Features.Surprise), at most 3
	Floor         float64 // for every unit
}

// DefaultWeights are the weights a [Buffer] uses unless given a scorer.
// Relevance dominates when there is a query; without one, recency and flags
// decide, so the buffer degrades to "newest first, facts kept".
//
// Relevance is raised to the 12th power: the selection maximises utility
// per token, and a flatter scale lets many half-relevant short messages
// outbid the one that answers (on real dialogue the square lost 0.11 of
// recall at 1,024 tokens; 12 and 16 are level). Flags no longer multiply
// relevance: on real dialogue that was worth nothing. Recency is weak and short-lived (see [option.WithHalfLife]): it
// keeps the last exchanges for continuity without crowding out old facts.
//
// Rewarded is 0: ratings reach a unit through its relevance (see
// [Buffer.Reward]). Adding the raw sum of the ratings a unit's loads
// received to its utility, as Rewarded does, cost recall on real dialogue
// with a user rating every answer: most answers are rated up, so every
// unit once shown crowded later loads.
var DefaultWeights = Weights{Relevance: 1, Sharpness: 12, FlagRelevance: 0, Recency: 0.2, Flag: 0.05, Directive: 0.6, Rewarded: 0, Floor: 0.01}

func (w Weights) relevance(f engram.Features) float64 {
	r := f.Relevance
	if w.Sharpness != 0 && w.Sharpness != 1 {
		r = power(max(0, r), w.Sharpness)
	}
	return w.Relevance * r * (1 + w.FlagRelevance*float64(min(3, f.Flags.Count())))
}

var _ engram.Explainer = Weights{}

// Score returns the weighted utility; never negative.
func (w Weights) Score(f engram.Features) float64 {
	s := w.Floor + w.relevance(f) + w.Recency*f.Recency +
		w.Flag*float64(min(3, f.Flags.Count()))
	if f.Flags.Has(engram.FlagDirective) {
		s += w.Directive
	}
	s += w.Rewarded * min(3, max(0, f.Surprise))
	if math.IsNaN(s) || s < 0 {
		return 0
	}
	return s
}

// Contributions splits Score into its parts: relevance, recency, flags
// (with the floor and any directive).
func (w Weights) Contributions(f engram.Features) map[string]float64 {
	flags := w.Floor + w.Flag*float64(min(3, f.Flags.Count()))
	if f.Flags.Has(engram.FlagDirective) {
		flags += w.Directive
	}
	return map[string]float64{"relevance": w.relevance(f), "recency": w.Recency * f.Recency, "flags": flags,
		"reward": w.Rewarded * min(3, max(0, f.Surprise))}
}

// power is math.Pow(x, y) for x ≥ 0, by repeated squaring when y is a
// small whole number (the default weights' 12): the load computes it for
// every unit.
func power(x, y float64) float64 {
	n := int(y)
	if float64(n) != y || n < 1 || n > 64 {
		return math.Pow(x, y)
	}
	r := 1.0
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r *= x
		}
		x *= x
	}
	return r
}
