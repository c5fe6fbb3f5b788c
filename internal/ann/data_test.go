package ann

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/viterin/vek/vek32"
)

// matrix is n unit vectors of d components, row after row.
type matrix struct {
	d int
	x []float32
}

func (m matrix) n() int                { return len(m.x) / m.d }
func (m matrix) row(i int32) []float32 { return m.x[int(i)*m.d : (int(i)+1)*m.d] }

// vectors is m as a Search callback, ids being row numbers.
func (m matrix) vectors(id int32) []float32 { return m.row(id) }

// clustered returns n unit vectors around 64 random unit centres, each
// centre plus Gaussian noise about as large, so that clusters overlap as
// topics do.
func clustered(n, d int, seed uint64) matrix {
	rng := rand.New(rand.NewPCG(seed, 1))
	centres := make([]float32, 64*d)
	for i := range centres {
		centres[i] = float32(rng.NormFloat64())
	}
	for c := range 64 {
		normalize(centres[c*d : (c+1)*d])
	}
	m := matrix{d, make([]float32, n*d)}
	for i := range n {
		c := centres[rng.IntN(64)*d:]
		v := m.x[i*d : (i+1)*d]
		for j := range v {
			v[j] = c[j] + 1.2*float32(rng.NormFloat64())/float32(10)
		}
		normalize(v)
	}
	return m
}

// topics are small word lists a chat line is made of, as in a memory of
// conversations: a line mostly draws from one topic, with some chatter.
var topics = [][]string{
	strings.Fields("dog puppy beagle walk park leash vet bark fetch treat cat kitten fur pet adopt shelter"),
	strings.Fields("job work office boss meeting salary promotion career interview project deadline colleague manager team resume"),
	strings.Fields("school teacher class exam homework student grade university lecture study degree campus library essay"),
	strings.Fields("doctor hospital health pain medicine exercise gym run marathon diet sleep headache therapy yoga"),
	strings.Fields("bake cook recipe bread sourdough cake dinner kitchen oven pasta soup garden tomato vegetables"),
	strings.Fields("travel flight trip beach hotel vacation passport paris japan mountains hiking camping tent road"),
	strings.Fields("music guitar piano concert band song album sing drums festival violin jazz"),
	strings.Fields("money rent mortgage bank savings budget loan bills insurance tax invest stocks"),
	strings.Fields("family mother father brother sister wedding baby kids children grandma birthday anniversary"),
	strings.Fields("movie film book novel read series painting art museum photography draw write poem"),
	strings.Fields("car drive bike repair engine garage bus train commute traffic"),
	strings.Fields("friend party weekend game soccer basketball football team match win coach"),
	strings.Fields("house apartment move furniture couch paint room neighbours city town garden"),
	strings.Fields("computer phone app code software laptop internet email website programming"),
}

var chatter = strings.Fields("really great today yesterday love think feel going know pretty nice last week tomorrow always never sure maybe fun hard happy tired excited")

// sentences returns n chat lines drawn from topics.
func sentences(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 2))
	out := make([]string, n)
	var b strings.Builder
	for i := range out {
		b.Reset()
		t, u := topics[rng.IntN(len(topics))], topics[rng.IntN(len(topics))]
		for w := range 4 + rng.IntN(10) {
			if w > 0 {
				b.WriteByte(' ')
			}
			switch r := rng.IntN(10); {
			case r < 6:
				b.WriteString(t[rng.IntN(len(t))])
			case r < 7:
				b.WriteString(u[rng.IntN(len(u))])
			default:
				b.WriteString(chatter[rng.IntN(len(chatter))])
			}
		}
		out[i] = b.String()
	}
	return out
}

// text returns n GloVe sentence vectors (internal/glove, 100 dimensions)
// of chat lines.
func text(n int, seed uint64) matrix { return embedAll(sentences(n, seed)) }

// oracle returns the exact top k of m for q, best first, ties by smaller id.
func oracle(m matrix, q []float32, k int) []hit {
	var top hits
	for i := range m.n() {
		top = top.push(k, hit{int32(i), vek32.Dot(q, m.row(int32(i)))})
	}
	slices.SortFunc(top, func(a, b hit) int {
		if c := cmp.Compare(b.s, a.s); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	return top
}

// recall is the share of the k exact best a Search found, tie-aware: an id
// counts if its exact score reaches the k-th exact score.
func recall(m matrix, q []float32, want []hit, got []int32) float64 {
	if len(want) == 0 {
		return 1
	}
	floor := want[len(want)-1].s
	hit := 0
	for _, id := range got {
		if vek32.Dot(q, m.row(id)) >= floor {
			hit++
		}
	}
	return float64(min(hit, len(want))) / float64(len(want))
}
