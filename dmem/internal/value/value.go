package value

import (
	"math"

	"github.com/engram-go/engram"
)

// Feature layout of a step: a bias, its role, its kind, its flags, its
// length, its novelty, and its embedding folded into foldDims dimensions
// (so that similar steps share value without storing a vector per state).
const (
	featRole    = 1
	featKind    = featRole + 5
	featFlags   = featKind + 7
	featTokens  = featFlags + 4
	featNovelty = featTokens + 1
	featFold    = featNovelty + 1
	foldDims    = 32
	// Dims is the number of features.
	Dims = featFold + foldDims
)

// Learning constants: the normalised step size of TD(0) and the rate at
// which the target weights follow the online ones (Polyak averaging).
const (
	learnRate  = 0.1
	polyakRate = 0.02
)

// Features is φ(s), the model's view of a step.
type Features [Dims]float32

// Of returns the features of a step of role, kind and flags, tokens long,
// of novelty in [0, 1] and unit vector vec (nil for none).
func Of(role engram.Role, kind engram.StepKind, flags engram.Flags, tokens int, novelty float64, vec []float32) Features {
	var f Features
	f[0] = 1
	if int(role) < 5 {
		f[featRole+int(role)] = 1
	}
	if int(kind) < 7 {
		f[featKind+int(kind)] = 1
	}
	for i, fl := range [...]engram.Flags{engram.FlagDirective, engram.FlagName, engram.FlagNumber, engram.FlagDate} {
		if flags.Has(fl) {
			f[featFlags+i] = 1
		}
	}
	f[featTokens] = float32(math.Log1p(float64(tokens)) / 6)
	f[featNovelty] = float32(novelty)
	// A unit vector folded into foldDims keeps its norm near 1 on average;
	// scaling by sqrt(foldDims/len) would shrink it, so it is left as is.
	for i, x := range vec {
		f[featFold+i%foldDims] += x
	}
	return f
}

// Model is V(s) = W·φ(s) and its trailing target W̄ (Target). Its whole
// state is two weight vectors and a count of updates. The zero Model
// values every step at 0.
type Model struct {
	W, Target [Dims]float64
	Updates   int64
}

// Online returns V(s) under the online weights.
func (v *Model) Online(f *Features) float64 { return dot(&v.W, f) }

// Trailing returns V̄(s) under the target weights.
func (v *Model) Trailing(f *Features) float64 { return dot(&v.Target, f) }

// Learn applies one TD(0) update for the transition s → next with reward
// r (next nil means s was terminal) and returns δ = r + γV̄(next) − V(s);
// a δ that is not finite changes nothing and returns 0.
func (v *Model) Learn(s, next *Features, r, gamma float64) float64 {
	boot := 0.0
	if next != nil {
		boot = gamma * v.Trailing(next)
	}
	delta := r + boot - v.Online(s)
	if math.IsNaN(delta) || math.IsInf(delta, 0) {
		return 0
	}
	var norm float64
	for _, x := range s {
		norm += float64(x) * float64(x)
	}
	step := learnRate / max(norm, 1)
	for i, x := range s {
		v.W[i] += step * delta * float64(x)
	}
	for i := range v.Target {
		v.Target[i] += polyakRate * (v.W[i] - v.Target[i])
	}
	v.Updates++
	return delta
}

func dot(w *[Dims]float64, f *Features) float64 {
	var s float64
	for i, x := range f {
		s += w[i] * float64(x)
	}
	return s
}
