package dmem

import (
	"container/heap"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/engram-go/engram/dmem/internal/nearby"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/internal/text"
)

// Priority is a core unit's claim to stay. It starts from the gate value and
// the surprise that admitted the unit, grows when the unit merges a
// near-duplicate or is retrieved just before a positive δ, and halves every
// half-life steps. Decay is lazy: a unit stores
//
//	LogP = log2(priority at step t) + t/halfLife
//
// which does not change as time passes, so the eviction heap is ordered by
// LogP once and never re-sorted; priority at step now is 2^(LogP − now/halfLife).
const (
	maxSurpriseGain = 8 // cap on |δ|/midpoint − 1 in a priority
	maxBoost        = 4 // cap on δ/midpoint in one consolidation boost
	minPriority     = 1e-9
	maxPriority     = 1e6 // store.NewLogP keeps to the same bounds
)

// priority returns the priority a step judged with gate value g, |δ| = x
// and gate midpoint mid starts with.
func priority(g, x, mid float64) float64 {
	gain := 0.0
	if mid > 0 {
		gain = min(max(0, x/mid-1), maxSurpriseGain)
	}
	return min(max(g*(1+gain), minPriority), maxPriority)
}

func (m *Memory) logP(p float64, step int64) float64 {
	return math.Log2(min(max(p, minPriority), maxPriority)) + float64(step)/m.opts.HalfLife
}

// priorityAt returns u's priority at step now.
func (m *Memory) priorityAt(u *unit, now int64) float64 {
	return min(math.Exp2(u.LogP-float64(now)/m.opts.HalfLife), maxPriority)
}

// age returns the current step in half-lives: the At of a [store.OpPriority].
func (m *Memory) age() float64 { return float64(m.st.Seq) / m.opts.HalfLife }

// updatePriority sets u's priority p, as of the current step, to
// max(p·mul + add, floor), and asks the store to do the same to its copy:
// as a change, not a value, so that changes by other writers add up.
func (m *Memory) updatePriority(u *unit, mul, add, floor float64, b *batch) {
	u.LogP = store.NewLogP(u.LogP, m.age(), mul, add, floor)
	if u.heapIdx >= 0 {
		heap.Fix(&m.heap, int(u.heapIdx))
	}
	b.ops = append(b.ops, store.Priority(u.Seq, m.age(), mul, add, floor))
}

// boost consolidates: the units the last load returned, now followed by a
// positive δ, had a part in a good outcome and gain priority in proportion.
func (m *Memory) boost(delta, mid float64, b *batch) {
	if delta <= 0 || len(m.retrieved) == 0 {
		return
	}
	surprise := min(delta/max(mid, 1e-12), maxBoost)
	f := 1 + surprise
	for _, id := range m.retrieved {
		u, ok := m.byID[id]
		if !ok || u.Route != RouteCore {
			continue
		}
		m.credit(u, surprise)
		// The learned gate scales the boost; it never turns it into a cut.
		m.updatePriority(u, max(1, f*m.learned(u)), 0, 0, b)
		u.record(Event{Step: m.st.Seq, Kind: EventBoosted, Route: u.Route, Delta: delta, Priority: m.priorityAt(u, m.st.Seq)})
		b.put(u)
	}
	m.retrieved = nil
}

// evictOverflow removes lowest-priority core units until core fits its
// capacity. It is the eviction policy: a heap pop, not a sort.
func (m *Memory) evictOverflow(b *batch) {
	for m.heap.Len() > m.opts.MaxUnits {
		u := heap.Pop(&m.heap).(*unit)
		m.unplace(u)
		u.record(Event{Step: m.st.Seq, Kind: EventEvicted, Route: RouteNowhere, Priority: m.priorityAt(u, m.st.Seq)})
		u.Route = RouteNowhere
		m.bury(u, b)
	}
}

// addCount returns the count n grown by k, at most MaxInt32.
func addCount(n int32, k int64) int32 { return int32(min(int64(n)+k, math.MaxInt32)) }

// merge folds step s, a near-duplicate of the stored unit u, into u:
// counts, rewards and priorities add up, the larger surprise is kept, and
// u keeps its text and place.
func (m *Memory) merge(u, s *unit, g float64, b *batch) {
	u.Merged = addCount(u.Merged, 1+int64(s.Merged))
	u.Reward = saturate(u.Reward + s.Reward)
	u.Retrieved = addCount(u.Retrieved, int64(s.Retrieved))
	if math.Abs(s.Delta) > math.Abs(u.Delta) {
		u.Delta = s.Delta
	}
	u.Gate = max(u.Gate, g)
	u.Novelty = max(u.Novelty, s.Novelty)
	u.Flags |= s.Flags
	// Merging a near-duplicate adds evidence that u matters.
	m.updatePriority(u, 1, priority(g, math.Abs(s.Delta), m.novelty.mid(0))*m.learned(s), 0, b)
	u.record(Event{Step: m.st.Seq, Kind: EventMerged, Route: u.Route, Delta: s.Delta, Gate: g, Priority: m.priorityAt(u, m.st.Seq)})
	b.put(u)
}

// A new step merges into a stored unit only if both halves of the
// near-duplicate test agree: their embeddings' cosine reaches the merge
// threshold, and their words say the same (sameWords). The embedding alone
// is not enough: the default one sees mostly common words (GloVe knows no
// account number and few names), so "exported refunds for account 4821"
// and "… account 7730", or "my PIN is 1234" and "my PIN is 9876", are
// nearly the same vector.
const (
	// minJaccard is how alike two texts' sets of stemmed content words
	// must be. A repeat scores 1 (case, punctuation and stop words aside);
	// at 0.9 one content word may be added or dropped per nine kept, and a
	// word swapped for another only among eighteen or more shared ones, so
	// in the short turns and tool results a memory holds any substitution
	// of a content word keeps the texts apart.
	minJaccard = 0.9
	// dupCandidates is how many of the most similar stored units, above
	// the threshold, the words test looks at: the nearest by cosine may be
	// a different number in the same template while a true repeat is
	// close behind.
	dupCandidates = 4
)

// duplicate returns the stored unit that a new step, with text s and
// lexis lx, repeats: the most similar by cosine among those at or above
// the merge threshold (close, which the novelty probe found among the
// units sharing an LSH bucket with the step) that also pass sameWords; nil
// if none. best is the nearest unit, at cosine sim, and is tried first.
func (m *Memory) duplicate(s string, lx lexis, best *unit, sim float64, close []nearby.Near[*unit]) *unit {
	if best == nil || sim < m.opts.Redundancy {
		return nil
	}
	// The probe ran before the step before this one was placed, which may
	// have evicted a unit it found: only a unit still held can take a repeat.
	held := func(u *unit) bool { return m.byID[u.ID] == u }
	if held(best) && sameWords(s, best.Text, lx, m.lexisOf(best)) {
		return best
	}
	cs := slices.DeleteFunc(close, func(c nearby.Near[*unit]) bool { return c.Item == best || !held(c.Item) })
	slices.SortFunc(cs, func(a, b nearby.Near[*unit]) int {
		if a.Sim != b.Sim {
			if a.Sim > b.Sim {
				return -1
			}
			return 1
		}
		return int(a.Item.Seq - b.Item.Seq)
	})
	for _, c := range cs[:min(len(cs), dupCandidates-1)] {
		if sameWords(s, c.Item.Text, lx, m.lexisOf(c.Item)) {
			return c.Item
		}
	}
	return nil
}

// sameWords reports whether texts a and b, with lexis la and lb, say the
// same thing in words: their stemmed content words are nearly the same set
// (Jaccard ≥ minJaccard), every word that bears a digit or names someone
// (relevance.Names) is in both, and both negate as often. Texts without
// content words ("ok", "no") are compared by all their words instead.
func sameWords(a, b string, la, lb lexis) bool {
	ta, tb := la.terms, lb.terms
	if len(ta) == 0 || len(tb) == 0 {
		ta, tb = norms(a), norms(b)
	}
	sa, sb := setOf(ta), setOf(tb)
	names := setOf(la.names)
	for _, n := range lb.names {
		names[n] = true
	}
	shared := 0
	for t := range sa {
		if sb[t] {
			shared++
		} else if key(t, names) {
			return false
		}
	}
	for t := range sb {
		if !sa[t] && key(t, names) {
			return false
		}
	}
	if union := len(sa) + len(sb) - shared; union > 0 && float64(shared) < minJaccard*float64(union) {
		return false
	}
	return negations(a) == negations(b)
}

// key reports whether term t must be in both texts of a merge: a number,
// an id, a version, or a name.
func key(t string, names map[string]bool) bool {
	return names[t] || strings.IndexFunc(t, unicode.IsDigit) >= 0
}

func setOf(ts []string) map[string]bool {
	s := make(map[string]bool, len(ts))
	for _, t := range ts {
		s[t] = true
	}
	return s
}

// norms returns the lower-cased words of s.
func norms(s string) []string {
	ws := text.Split(text.Excerpt(s))
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = strings.ReplaceAll(w.Norm, "’", "'")
	}
	return out
}

// negations counts the words of s that negate, which text.Terms drops as
// stop words: "the tests pass" and "the tests don't pass" have the same
// content words.
func negations(s string) int {
	n := 0
	for _, w := range norms(s) {
		if negator[w] || strings.HasSuffix(w, "n't") {
			n++
		}
	}
	return n
}

var negator = map[string]bool{"not": true, "no": true, "never": true, "none": true, "nothing": true,
	"nobody": true, "nowhere": true, "neither": true, "nor": true, "cannot": true, "without": true,
	"dont": true, "doesnt": true, "didnt": true, "isnt": true, "wasnt": true, "cant": true, "wont": true}

// evictHeap is a min-heap of core units by LogP, oldest first on ties.
type evictHeap []*unit

func (h evictHeap) Len() int { return len(h) }
func (h evictHeap) Less(i, j int) bool {
	if h[i].LogP != h[j].LogP {
		return h[i].LogP < h[j].LogP
	}
	return h[i].Seq < h[j].Seq
}
func (h evictHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].heapIdx = int32(i)
	h[j].heapIdx = int32(j)
}
func (h *evictHeap) Push(x any) {
	u := x.(*unit)
	u.heapIdx = int32(len(*h))
	*h = append(*h, u)
}
func (h *evictHeap) Pop() any {
	old := *h
	u := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	u.heapIdx = -1
	return u
}
