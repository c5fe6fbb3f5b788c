package dmem

import (
	"container/heap"
	"math"
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
	maxPriority     = 1e6 // see NewLogP
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
	return math.Log2(min(max(p, minPriority), maxPriority)) + float64(step)/m.opts.halfLife
}

// priorityAt returns u's priority at step now.
func (m *Memory) priorityAt(u *unit, now int64) float64 {
	return min(math.Exp2(u.LogP-float64(now)/m.opts.halfLife), maxPriority)
}

// age returns the current step in half-lives: the At of an [OpPriority].
func (m *Memory) age() float64 { return float64(m.st.Seq) / m.opts.halfLife }

// updatePriority sets u's priority p, as of the current step, to
// max(p·mul + add, floor), and asks the store to do the same to its copy:
// as a change, not a value, so that changes by other writers add up.
func (m *Memory) updatePriority(u *unit, mul, add, floor float64, b *batch) {
	u.LogP = NewLogP(u.LogP, m.age(), mul, add, floor)
	if u.heapIdx >= 0 {
		heap.Fix(&m.heap, u.heapIdx)
	}
	b.ops = append(b.ops, Priority(u.Seq, m.age(), mul, add, floor))
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
	for m.heap.Len() > m.opts.capacity {
		u := heap.Pop(&m.heap).(*unit)
		m.unplace(u)
		u.record(Event{Step: m.st.Seq, Kind: EventEvicted, Route: RouteNowhere, Priority: m.priorityAt(u, m.st.Seq)})
		u.Route = RouteNowhere
		m.bury(u, b)
	}
}

// merge folds step s, a near-duplicate of the stored unit u, into u:
// counts, rewards and priorities add up, the larger surprise is kept, and
// u keeps its text and place.
func (m *Memory) merge(u, s *unit, g float64, b *batch) {
	u.Merged += 1 + s.Merged
	u.Reward = saturate(u.Reward + s.Reward)
	u.Retrieved += s.Retrieved
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
	h[i].heapIdx = i
	h[j].heapIdx = j
}
func (h *evictHeap) Push(x any) {
	u := x.(*unit)
	u.heapIdx = len(*h)
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
