package lexicon

import (
	"cmp"
	"math"
	"slices"

	"github.com/engram-go/engram/internal/wire"
)

// hyperWeights weighs the ancestors of a sense by depth, relative to the
// sense itself; doc.go explains the choice. Each is further scaled by the
// ancestor's information content, so "health professional" counts and
// "entity" does not, and divided by √k where a synset has k hypernyms.
var hyperWeights = [...]float64{
	0.9,  // a hypernym or instance hypernym: dad → father, Paris → city
	0.3,  // its hypernym: dad → parent
	0.1,  // depth 3
	0.04, // depth 4: hygienist → specialist → doctor → medical practitioner → health professional
}

// maxAcc bounds the concepts gathered for one stem before the heaviest
// MaxConcepts are kept; the table's stems need at most a few dozen.
const maxAcc = 96

type step struct {
	id  uint32
	fan float64 // product of 1/√k along the path
}

// accumulator is a small sparse vector.
type accumulator struct {
	c []Concept
}

func (a *accumulator) add(id uint32, w float32) {
	for i := range a.c {
		if a.c[i].ID == id {
			a.c[i].Weight += w
			return
		}
	}
	if len(a.c) < cap(a.c) {
		a.c = append(a.c, Concept{ID: id, Weight: w})
	}
}

// vector computes the concepts of stem number i: each sense with its
// weighted ancestors, each related form alone, the heaviest MaxConcepts
// kept and scaled to the stem's confidence.
func (t *table) vector(i uint32) []Concept {
	var buf [maxAcc]Concept
	acc := accumulator{c: buf[:0]}
	var fb, nb [32]step
	r := wire.Reader{B: t.raw[t.data[i]:]}
	for list := range 2 {
		for k := r.Uvarint(); k > 0; k-- {
			id := uint32(r.Uvarint())
			w := float32(r.Byte()) / 255
			acc.add(id, w)
			if list == 1 {
				continue // related forms do not expand
			}
			front, spare := append(fb[:0], step{id: id, fan: 1}), nb[:0]
			for _, dw := range hyperWeights {
				next := spare[:0]
				for _, s := range front {
					hs := t.hyp[t.hypOff[s.id]:t.hypOff[s.id+1]]
					fan := s.fan / math.Sqrt(float64(len(hs)))
				hyper:
					for _, h := range hs {
						for j := range next { // paths that meet go on as one
							if next[j].id == h {
								next[j].fan += fan
								continue hyper
							}
						}
						if len(next) < cap(next) {
							next = append(next, step{id: h, fan: fan})
						}
					}
				}
				for _, s := range next {
					acc.add(s.id, w*float32(dw*s.fan*float64(t.ic[s.id])/255))
				}
				front, spare = next, front
			}
		}
	}

	c := acc.c
	slices.SortFunc(c, func(a, b Concept) int {
		if a.Weight != b.Weight {
			return cmp.Compare(b.Weight, a.Weight)
		}
		return cmp.Compare(a.ID, b.ID)
	})
	c = c[:min(len(c), MaxConcepts)]
	var norm float64
	for _, x := range c {
		norm += float64(x.Weight) * float64(x.Weight)
	}
	if norm == 0 {
		return nil
	}
	scale := float64(t.conf[i]) / 255 / math.Sqrt(norm)
	out := make([]Concept, 0, len(c))
	for _, x := range c {
		if x.Weight = float32(float64(x.Weight) * scale); x.Weight > 0 {
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out[:len(out):len(out)]
}
