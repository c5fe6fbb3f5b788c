package gate

import (
	"math"

	"github.com/engram-go/engram"
)

// The gate's view of a unit, φ(f): a bias and cheap transforms of
// [engram.Features], each scaled to about [0, 1] so that one learning rate
// suits all of them. The layout is part of the serialised format: changing
// it means a new version.
const (
	featBias = iota
	featRelevance
	featRelevance2
	featRecency
	featRedundancy
	featTokens
	featHuman
	featAI
	featSystem
	featToolCall
	featToolResult
	featDirective
	featName
	featNumber
	featDate
	featPinned
	featRetrieved
	featAge
	featSurprise
	featAbsSurprise
	numFeatures
)

// featureNames name the parts [Gate.Contributions] and [Gate.Weights] report.
var featureNames = [numFeatures]string{
	"bias", "relevance", "relevance²", "recency", "redundancy", "tokens",
	"role:human", "role:ai", "role:system", "role:tool_call", "role:tool_result",
	"directive", "name", "number", "date", "pinned",
	"retrieved", "age", "surprise", "|surprise|",
}

// vector is φ(f).
type vector [numFeatures]float64

// phi maps features to the gate's inputs. Counts and sizes enter on a log
// scale: the tenth retrieval or the thousandth token says less than the first.
func phi(f engram.Features) vector {
	var x vector
	x[featBias] = 1
	// Relevance has no upper bound (engram's measure multiplies a plain
	// match by the answer-type and novelty boosts): map it onto [0, 1)
	// without flattening the top, where the units that matter are.
	r := 0.0
	switch x := f.Relevance; {
	case math.IsInf(x, 1):
		r = 1
	case x > 0:
		r = x / (1 + x)
	}
	x[featRelevance] = r
	x[featRelevance2] = r * r
	x[featRecency] = clamp(f.Recency, 0, 1)
	x[featRedundancy] = clamp(f.Redundancy, 0, 1)
	x[featTokens] = math.Log2(1+float64(max(0, f.Tokens))) / 10 // 1 at 1,023 tokens
	if int(f.Role) <= int(engram.RoleToolResult) {
		x[featHuman+int(f.Role)] = 1
	}
	for i, fl := range [...]engram.Flags{engram.FlagDirective, engram.FlagName, engram.FlagNumber, engram.FlagDate, engram.FlagPinned} {
		if f.Flags.Has(fl) {
			x[featDirective+i] = 1
		}
	}
	x[featRetrieved] = min(2, math.Log2(1+float64(max(0, f.Retrieved)))/4) // 1 at 15 loads
	x[featAge] = min(2, math.Log2(1+float64(max(0, f.AgeSteps)))/14)       // 1 at 16,383 units
	s := clamp(f.Surprise, -4, 4) / 4
	x[featSurprise] = s
	x[featAbsSurprise] = math.Abs(s)
	return x
}

// clamp returns x within [lo, hi]; NaN becomes lo.
func clamp(x, lo, hi float64) float64 {
	if !(x > lo) {
		return lo
	}
	return min(x, hi)
}

func sigmoid(z float64) float64 {
	if z < -40 {
		return 0
	}
	return 1 / (1 + math.Exp(-z))
}
