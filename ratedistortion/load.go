package ratedistortion

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/engram-go/engram/internal/facts"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/knapsack"
	"github.com/engram-go/engram/internal/memvars"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/tmc/langchaingo/llms"
)

// redundancyCandidates is how many of the best candidate groups are compared
// pairwise for near-duplicates; lower-ranked groups rarely fit the budget.
const redundancyCandidates = 12

// LoadMemoryVariables returns the history to show the model: the units
// that maximise utility for the query inputs[input key] within the token
// budget, in chronological order, after a summary of what was left out.
// No query (no inputs, or an empty one) is allowed: recency and flags
// then decide. The input key is found as on save ([option.WithInputKey]): several
// keys and none set, a missing input key or a non-string query give
// [engram.ErrInvalidInput]. If pinned units alone
// exceed the budget it returns [engram.ErrBudgetTooSmall].
func (b *Buffer) LoadMemoryVariables(ctx context.Context, inputs map[string]any) (map[string]any, error) {
	query, err := b.opts.Query(ctx, inputs)
	if err != nil {
		return nil, err
	}
	var qvec []float32
	if query != "" {
		v, err := b.opts.Embedder.EmbedQuery(ctx, query)
		if err != nil {
			return nil, fmt.Errorf("ratedistortion: embed query: %w", err)
		}
		if err := finite(v); err != nil {
			return nil, fmt.Errorf("ratedistortion: embed query: %w", err)
		}
		qvec = embed.Normalized(v)
	}

	got, fresh := b.recall(ctx, query)

	b.mu.Lock()
	cleared := b.cleared
	b.cache(got, fresh)
	sel, err := b.selectUnits(query, qvec, relevance.Off(ctx))
	b.mu.Unlock()
	if err != nil {
		return nil, err
	}

	if err := b.summarise(ctx, sel); err != nil {
		return nil, err
	}
	// Rendered before it is installed: once it is the last load, a later
	// load may retire it and the one after reuse its arrays.
	var out any
	if b.opts.ReturnMessages {
		out = sel.messages()
	} else {
		out = sel.render()
	}
	// Only a load that succeeds counts as a retrieval and becomes the one
	// Explain and Reward see; one that a Clear overtook leaves no trace.
	b.mu.Lock()
	if b.cleared == cleared {
		for i, u := range sel.units {
			if sel.kept[i] {
				u.e.retrieved = min(u.e.retrieved+1, math.MaxInt32) // what Save writes and Restore reads
				if u.e.origin != "" {
					u.e.used = b.loads
				}
			}
		}
		sel.recalled = got
		b.spare, b.last = b.last, sel
		var keys []string
		for i, u := range sel.units {
			if sel.kept[i] {
				keys = append(keys, u.e.unit.ID)
			}
		}
		b.credit.Loaded(qvec, query, keys)
	} else if b.spare == nil {
		b.spare = sel
	}
	b.mu.Unlock()
	return map[string]any{b.opts.MemoryKey: out}, nil
}

// scored is a unit's features and utility for one load.
type scored struct {
	e        *entry
	features engram.Features
	utility  float64
	item     int // index of its group in the knapsack problem
	cost     int // tokens as rendered by this load
}

// selection is the outcome of one load, detached from the pool.
type selection struct {
	b        *Buffer
	query    string
	budget   int
	units    []scored // every unit, chronological
	kept     []bool   // by unit
	sol      knapsack.Solution
	items    []knapsack.Item   // the knapsack's items, which sol reads
	members  [][]int           // by item: its units
	own      []int             // backing of the one-unit members
	order    []int             // the units\' numbers in relevance\'s scores, by position in units
	reserve  int               // tokens left for the summary
	recalled map[string]bool   // origins the long-term tier returned for this load
	headers  map[int]string    // by unit: the date header shown before it, if any (see dateHeaders)
	headTok  int               // the headers' cost
	learned  bool              // the gate has learned from this load (learn.go)
	summary  []string          // summary lines, each ending in "\n"
	stale    map[*entry]string // superseded units, to the ID of the unit that superseded each (facts.go)
	sumTok   int               // their exact cost, header included
	newest   []int             // the items kept as the newest messages (option.WithRecentMessages)
}

// features computes the query-independent features of e plus rel. A unit
// recalled from the long-term tier is as old as the pool: its age is the
// pool's whole length, its recency 0.
func (b *Buffer) features(e *entry, rel float64, off relevance.Component) engram.Features {
	age := b.seq - 1 - e.unit.Seq
	if e.origin != "" {
		age = b.seq
	}
	flags, rec := e.unit.Flags, b.recency(age)
	if off&relevance.Flags != 0 {
		flags &= engram.FlagPinned | engram.FlagDirective
	}
	if off&relevance.Recency != 0 {
		rec = 0
	}
	return engram.Features{
		Relevance: rel,
		Recency:   rec,
		Tokens:    e.unit.Tokens,
		Role:      e.unit.Role,
		Flags:     flags,
		Retrieved: e.retrieved,
		AgeSteps:  age,
		Surprise:  e.reward,
	}
}

// recency is 2^(−age/halfLife), and 0 past 30 half-lives, where it is below
// 1e-9, a ten-millionth of the default weights' floor: most of a large pool
// costs no exponential.
func recency(age int64, halfLife float64) float64 {
	if float64(age) > 30*halfLife {
		return 0
	}
	return math.Exp2(-float64(age) / halfLife)
}

// recency is recency(age, the buffer's half-life), read from a table for
// the ages a pool holds most: a load weighs every unit's.
func (b *Buffer) recency(age int64) float64 {
	if age >= 0 && age < int64(len(b.recencies)) {
		return b.recencies[age]
	}
	return recency(age, b.opts.HalfLife)
}

// recencyTable returns recency(age, halfLife) for the ages below 30
// half-lives, at most 4,096 of them.
func recencyTable(halfLife float64) []float64 {
	n := int(min(4096, math.Ceil(30*halfLife)+1))
	t := make([]float64, n)
	for age := range t {
		t[age] = recency(int64(age), halfLife)
	}
	return t
}

// selectUnits scores the pool and solves the budgeted selection.
// off switches relevance components off for an ablation (relevance.WithOff).
func (b *Buffer) selectUnits(query string, qvec []float32, off relevance.Component) (*selection, error) {
	// The arrays of the load before last are reused: a load allocated
	// about 100 KB on a 600-turn pool, and the collector's work showed.
	s := b.spare
	if s == nil {
		s = &selection{}
	}
	b.spare = nil
	rel := b.relevance(query, qvec, off)
	defer func() { b.gathered.Release(); b.gathered = relevance.Gathered{} }()
	n := len(rel)
	gathers := n > gatherAbove && n > gatherRatio*b.gatherTop() && query != ""
	order := s.order[:0]
	if !gathers || b.gathered.Rel == nil {
		// A load that gathered its relevance orders what it gathers
		// itself: a pass over every unit here would be most of what
		// grows with the pool.
		order = b.chronological(order)
	}
	*s = selection{b: b, query: query, budget: b.opts.Budget,
		units: grow(s.units, n), kept: grow(s.kept, n), own: grow(s.own, n),
		items: s.items[:0], members: s.members[:0], order: order}
	if b.credit.Touched() {
		// What ratings taught moves relevance, before anything else reads
		// it: the pool's units by id, the guests (few) one by one.
		ans := b.credit.Answers(qvec, query)
		b.credit.Moved(ans, func(id string, m float64) {
			if e := b.byID[id]; e != nil {
				if d, ok := b.position(e); ok {
					rel[d] *= m
				}
			}
		})
		for j, g := range b.guests {
			rel[len(b.pool)+j] *= b.credit.Multiplier(g.unit.ID, ans)
		}
	}
	s.stale = b.supersede(rel, qvec)
	if gathers {
		order = b.gather(order, rel, s.stale)
		n = len(order)
		s.order, s.units, s.kept, s.own = order, grow(s.units, n), grow(s.kept, n), grow(s.own, n)
	}
	var itemOfGroup map[int64]int // made for the first tool call
	lastGroup, lastItem := int64(-1), -1
	var recent []int // the items of the newest messages (option.WithRecentMessages)
	items, members, own := s.items, s.members, s.own
	for i, d := range order {
		e := b.entryAt(d)
		f := b.features(e, rel[d], off)
		u := b.score(f)
		if b.formulaic(e) {
			u = b.ownRelevance(f, u)
		}
		cost := e.unit.Tokens
		// A message is selected on its own (a pair's reply and its turn
		// compete apart: on real dialogue pairing them lost 0.03–0.06 of
		// recall); a tool call and its results only together. Their
		// groups are mostly adjacent; the map is for results that join an
		// earlier call.
		k, ok := 0, false
		s.units[i].e = e
		if j := dependsOn(s, i); j >= 0 && len(e.toolIDs) == 0 && !e.unit.Flags.Has(engram.FlagPinned) &&
			!items[s.units[j].item].Forced && items[s.units[j].item].Cost+cost <= facts.Room(e.facts, b.opts.Budget) {
			// "But not green apples" means nothing without the turn
			// before it, nor "no, I said Tuesday" with it: one item —
			// within facts.Room, so that a chain of "but"s cannot grow
			// past what a load can show, and never a pinned one, whose
			// dependents compete on their own.
			k, ok = s.units[j].item, true
			lastGroup = -1
		} else if len(e.toolIDs) > 0 {
			g := e.unit.Group
			if k, ok = lastItem, g == lastGroup && i > 0; !ok {
				k, ok = itemOfGroup[g]
			}
			if !ok {
				if itemOfGroup == nil {
					itemOfGroup = make(map[int64]int)
				}
				itemOfGroup[g] = len(items)
			}
			lastGroup = g
		} else {
			lastGroup = -1
		}
		if !ok {
			k = len(items)
			items = append(items, knapsack.Item{})
			own[i] = i
			members = append(members, own[i:i+1:i+1])
		} else {
			members[k] = append(members[k], i)
		}
		items[k].Cost += cost
		items[k].Weight += u
		items[k].Forced = items[k].Forced || e.unit.Flags.Has(engram.FlagPinned)
		if d < len(b.pool) && e.unit.Seq >= b.seq-int64(b.opts.Recent) {
			recent = append(recent, k)
		}
		lastItem = k
		s.units[i] = scored{e: e, features: f, utility: u, item: k, cost: cost}
	}

	// The newest messages are kept whatever their score, each item whose
	// whole cost (a tool call's results joined it after) fits the room,
	// while what must be kept fits the budget: pinned units come first.
	s.newest = knapsack.Force(items, recent, b.opts.RecentRoom(), s.budget)
	total, forced := 0, 0
	for _, it := range items {
		total += it.Cost
		if it.Forced {
			forced += it.Cost
		}
	}
	selBudget := s.budget
	if total > s.budget && b.opts.summaryShare > 0 {
		// The summary's reserve never crowds out pinned units.
		reserve := min(int(float64(s.budget)*b.opts.summaryShare), max(0, s.budget-forced))
		selBudget -= reserve
	}
	edges := b.redundancyEdges(items, members, s.units)
	sol, err := knapsack.Solve(knapsack.Problem{Items: items, Edges: edges, Budget: selBudget, ExactLimit: b.opts.exactLimit})
	if err != nil {
		if errors.Is(err, knapsack.ErrInfeasible) {
			return nil, fmt.Errorf("ratedistortion: load: pinned units need more than %d tokens: %w (%w)", selBudget, engram.ErrBudgetTooSmall, err)
		}
		return nil, fmt.Errorf("ratedistortion: load: %w", err)
	}
	s.sol, s.items, s.members = sol, items, members
	s.keep(sol)
	b.fitHeaders(s, selBudget, edges)
	s.reserve = s.budget - s.sol.Cost - s.headTok // everything unused goes to the summary
	return s, nil
}

// grow returns xs resized to n, reusing its array when it is large enough;
// the elements are not cleared.
func grow[T any](xs []T, n int) []T {
	if cap(xs) < n {
		return make([]T, n)
	}
	return xs[:n]
}

// redundancyEdges links near-duplicate groups among the best candidates and
// records each unit's redundancy feature.
func (b *Buffer) redundancyEdges(items []knapsack.Item, members [][]int, units []scored) []knapsack.Edge {
	cand := topByRatio(items, redundancyCandidates)
	vecs := make([][]float32, len(cand))
	sparse := make([]relevance.Vector, len(cand))
	terms := make([][]int32, len(cand)) // sorted, distinct
	for x, k := range cand {
		g := b.groupVector(units, members[k])
		vecs[x], sparse[x] = g.dense, g.sparse
		for _, i := range members[k] {
			terms[x] = append(terms[x], units[i].e.termIDs...)
		}
		slices.Sort(terms[x])
		terms[x] = slices.Compact(terms[x])
	}
	tau := b.opts.Redundancy
	red := make([]float64, len(items))
	var edges []knapsack.Edge
	for x := range cand {
		for y := x + 1; y < len(cand); y++ {
			i, j := cand[x], cand[y]
			// Word vectors make short texts alike ("fine", "sure") and
			// do not see numbers or rare names: a repeat must also say
			// the same words.
			// The overlap can only lower c: skip it where c could
			// neither make an edge nor raise a redundancy.
			c := sparse[y].Dot(vecs[x])
			if c >= tau || c > min(red[i], red[j]) {
				c = min(c, jaccard(terms[x], terms[y]))
			}
			red[i], red[j] = max(red[i], c), max(red[j], c)
			if c < tau {
				continue
			}
			r := 1.0
			if tau < 1 {
				r = min(1, (c-tau)/(1-tau))
			}
			if r > 0 {
				edges = append(edges, knapsack.Edge{A: i, B: j, R: r})
			}
		}
	}
	// The scorer sees redundancy too: score the candidates again with it.
	// Groups outside the candidates rarely fit; their redundancy stays 0.
	for _, k := range cand {
		items[k].Weight = 0
		for _, i := range members[k] {
			units[i].features.Redundancy = max(0, red[k])
			units[i].utility = b.score(units[i].features)
			if b.formulaic(units[i].e) {
				units[i].utility = b.ownRelevance(units[i].features, units[i].utility)
			}
			items[k].Weight += units[i].utility
		}
	}
	return edges
}

// score returns the scorer's utility for f, corrected by what ratings
// taught of the kinds of unit that answer (credit.Ledger.Correction); 0 if
// it is not a finite, non-negative number.
func (b *Buffer) score(f engram.Features) float64 {
	u := b.opts.scorer.Score(f) * b.credit.Correction(f)
	if math.IsNaN(u) || math.IsInf(u, 0) || u < 0 {
		return 0
	}
	return min(u, maxUtility)
}

// ownRelevance returns what relevance adds to u, the utility of a unit
// with features f, if that is most of u, and 0 otherwise: all a formulaic
// reply is worth (repeat.go).
func (b *Buffer) ownRelevance(f engram.Features, u float64) float64 {
	f.Relevance = 0
	if r := u - b.score(f); r >= u/2 {
		return r
	}
	return 0
}

// maxUtility caps a unit's utility, so that the sums the selector forms
// stay finite whatever a custom scorer returns.
const maxUtility = 1e200

// groupVec is a group's normalised embedding, dense and compressed.
type groupVec struct {
	members int
	dense   []float32
	sparse  relevance.Vector
}

// groupVector returns the cached embedding of the group made of units
// members, computing it when the group is new or has grown. b.mu is held.
func (b *Buffer) groupVector(units []scored, members []int) groupVec {
	first := units[members[0]].e
	if g := first.group; g != nil && g.members == len(members) {
		return *g
	}
	var v []float32
	for _, i := range members {
		v = addVec(v, units[i].e.unit.Embedding)
	}
	embed.Normalize(v)
	g := &groupVec{members: len(members), dense: v, sparse: relevance.Compress(v)}
	first.group = g
	return *g
}

// topByRatio returns the indices of the k items with the most weight per
// token, best first.
func topByRatio(items []knapsack.Item, k int) []int {
	ratio := make([]float64, len(items))
	for i, it := range items {
		ratio[i] = it.Weight / float64(it.Cost)
	}
	return relevance.Top(ratio, k)
}

// render returns the history string the way langchaingo renders one: the
// summary, then the kept units, chronological, each under its date header
// if it has one, lines joined by "\n", no trailing newline. It writes them
// into one buffer: a load renders every line it keeps.
func (s *selection) render() string {
	var sb strings.Builder
	size := len(summaryHeader)
	for _, l := range s.summary {
		size += len(l)
	}
	for i := range s.units {
		if s.kept[i] {
			size += len(s.units[i].e.unit.Text) + 16
		}
	}
	sb.Grow(size)
	if len(s.summary) > 0 {
		sb.WriteString(summaryHeader)
		for _, l := range s.summary {
			sb.WriteString(l)
		}
	}
	for i := range s.units {
		if s.kept[i] {
			if h := s.headers[i]; h != "" {
				sb.WriteString(h)
			}
			e := s.units[i].e
			memvars.WriteLineOf(&sb, s.b.prefix(e.unit.Role), e.unit.Text, e.plain)
			sb.WriteByte('\n')
		}
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// messages returns the kept units (and the summary) as chat messages.
func (s *selection) messages() []llms.ChatMessage {
	var out []llms.ChatMessage
	if len(s.summary) > 0 {
		out = append(out, summaryMessage(s.summary))
	}
	for i, u := range s.units {
		if s.kept[i] {
			id := ""
			if len(u.e.toolIDs) > 0 && u.e.toolIDs[0] != observedCall {
				id = u.e.toolIDs[0]
			}
			if h := s.headers[i]; h != "" {
				out = append(out, llms.SystemChatMessage{Content: strings.TrimSuffix(h, "\n")})
			}
			if c := u.e.call; c != nil {
				out = append(out, c.message())
				continue
			}
			out = append(out, memvars.Returned(u.e.unit.Role, u.e.unit.Text, id))
		}
	}
	return out
}

// tokens returns the exact token count of render(). Lines that end in "\n"
// and start with a visible character are split apart by the tokenizer's
// pre-tokenizer, so the count is the sum of the cached line counts, with the
// last line counted again without its newline.
func (s *selection) tokens() int {
	last, ok := s.lastLine()
	if !ok {
		return 0
	}
	n := s.sumTok + s.headTok
	for i, u := range s.units {
		if s.kept[i] {
			n += u.cost
		}
	}
	return n - s.b.opts.Counter(last) + s.b.opts.Counter(strings.TrimSuffix(last, "\n"))
}

// lastLine returns the last line render writes, newline included, without
// building the others; false if there are none.
func (s *selection) lastLine() (string, bool) {
	for i := len(s.units) - 1; i >= 0; i-- {
		if s.kept[i] {
			e := s.units[i].e
			return s.b.line(e.unit.Role, e.unit.Text), true
		}
	}
	if n := len(s.summary); n > 0 {
		return s.summary[n-1], true
	}
	return "", false
}

func addVec(acc, v []float32) []float32 {
	if acc == nil {
		return slices.Clone(v)
	}
	if len(acc) != len(v) {
		return acc
	}
	for i := range v {
		acc[i] += v[i]
	}
	return acc
}

// jaccard returns |a ∩ b| / |a ∪ b| of two sorted sets, 1 for two empty ones.
func jaccard(a, b []int32) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	both := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			both++
			i++
			j++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}
