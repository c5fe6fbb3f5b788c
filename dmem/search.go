package dmem

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/internal/vecindex"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/credit"
	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/relevance"
)

// A load's search runs in three stages over one read lock:
//
//	gather  the nearest units by vector, the best by their words, the
//	        short-term buffer, what a rated answer to nearly this
//	        question showed (the newest units, without a query)
//	expand  what the gathered cannot be shown without or that answers
//	        for them: tool-call partners, other writers' units, the
//	        newer statement of a fact, the slots the query is like, the
//	        turns a candidate depends on or that depend on it
//	score   fused relevance and salience, the slots' share, the
//	        superseded's score passed on, the kinds ratings taught
//
// The query is embedded, and the store asked, before the lock is taken:
// either may be a round trip away.

// An in-memory load reads the words index's embedding matrix, not the
// chromem-go collection (the index of record), whose query sends every
// document through a channel: 5.4 ms at 10,000 units against 0.9 ms for
// the whole load. Past relevance.GatherAbove units a load scores only what
// it gathers: the matrix's approximate nearest, the best by rarer words.

// search gathers, expands and scores the candidates of a load for query.
// It returns them, the query's key for what ratings taught
// (credit.Ledger): the normalised part of its vector relevance compares,
// nil without a query, and the Clears the memory had seen (Memory.cleared).
func (m *Memory) search(ctx context.Context, query string) ([]cand, []float32, int64, error) {
	m.mu.RLock()
	local, dim, closed := m.w == nil, m.st.Dim, m.closed
	m.mu.RUnlock()
	if closed {
		return nil, nil, 0, fmt.Errorf("dmem: load: %w", engram.ErrClosed)
	}
	qvec, part, err := m.queryVector(ctx, query, local, dim)
	if err != nil {
		return nil, nil, 0, err
	}
	// Refused before the store is asked: a store may be a round trip away,
	// and answer a vector of the wrong length with an error of its own.
	if qvec != nil && dim != 0 && len(qvec) != dim && !part {
		return nil, nil, 0, fmt.Errorf("dmem: query embedding has %d dimensions, memory has %d: %w", len(qvec), dim, engram.ErrInvalidInput)
	}
	semantic := qvec != nil && !vecindex.Zero(qvec)
	if qvec != nil {
		m.slotVectors(ctx)
	}
	var hits []store.Hit
	if m.w != nil && semantic {
		if hits, err = m.w.store.Query(ctx, m.w.ns, qvec, m.opts.candidates); err != nil {
			return nil, nil, 0, fmt.Errorf("dmem: load: %w", err)
		}
	}

	m.mu.RLock()
	defer m.mu.RUnlock()
	epoch := m.cleared
	if m.closed {
		return nil, nil, 0, fmt.Errorf("dmem: load: %w", engram.ErrClosed)
	}
	if qvec != nil && m.st.Dim != 0 && len(qvec) != m.st.Dim && !part {
		return nil, nil, 0, fmt.Errorf("dmem: query embedding has %d dimensions, memory has %d: %w", len(qvec), m.st.Dim, engram.ErrInvalidInput)
	}
	g := m.newGathering()
	defer g.release() // read by now: the candidates hold their relevance
	var q *relevance.Query
	if strings.TrimSpace(query) != "" {
		nq := relevance.NewQuery(query, embed.Normalized(m.words.cut(qvec)))
		q = &nq
		q.Off = relevance.Off(ctx)
	}
	near, foreign := m.nearby(hits)
	g.gather(q, near, local)
	likes := g.expand(q, foreign, semantic)
	g.score(likes)
	if m.opts.Recent > 0 { // off by default: no lookup a candidate
		for i := range g.cs {
			g.cs[i].recent = m.recent(g.cs[i].u)
		}
	}
	var qkey []float32
	if q != nil {
		qkey = q.Vec
	}
	return g.cs, qkey, epoch, nil
}

// queryVector embeds query for a load: nil without a query; the compared
// part alone when the memory scans its units in process and the
// embedder's layout allows it (part), else the whole vector normalised.
func (m *Memory) queryVector(ctx context.Context, query string, local bool, dim int) (qvec []float32, part bool, err error) {
	if strings.TrimSpace(query) == "" {
		return nil, false, nil
	}
	l := m.opts.Layout
	if local && l.Part != nil && (dim == 0 || l.Dims == dim) {
		if err := ctx.Err(); err != nil {
			return nil, false, fmt.Errorf("dmem: embed query: %w", err)
		}
		return l.Part(query), true, nil
	}
	v, err := m.opts.Embedder.EmbedQuery(ctx, query)
	if err != nil {
		return nil, false, fmt.Errorf("dmem: embed query: %w", err)
	}
	if qvec, err = vecindex.Normalised(v); err != nil {
		return nil, false, fmt.Errorf("dmem: embed query: %w", err)
	}
	return qvec, false, nil
}

// nearby splits the store's hits into the units this memory holds and
// those other writers of the namespace stored. m.mu is held.
func (m *Memory) nearby(hits []store.Hit) ([]*unit, []store.Hit) {
	var near []*unit
	var foreign []store.Hit
	for _, h := range hits {
		id := idOf(h.Seq)
		if u, ok := m.byID[id]; ok {
			near = append(near, u)
		} else if _, gone := m.gone[id]; !gone {
			foreign = append(foreign, h)
		}
	}
	return near, foreign
}

// gathering is one load's candidates as they are gathered. It is used
// with m.mu held (for reading).
type gathering struct {
	m     *Memory
	now   int64
	seen  map[*unit]bool
	cs    []cand
	rel   []float64          // relevance by candidate
	all   []float64          // relevance by words slot; nil without a query
	among relevance.Gathered // a large memory's relevance (relevance.Gather): all is its Rel
	// The arrays relevance is formed and ranked in, kept for the next load.
	scratch relevance.Scratch
	top     relevance.TopScratch
}

func (m *Memory) newGathering() *gathering {
	n := min(2*m.opts.candidates+len(m.short), len(m.byID)+1) // WithCandidates may be far above what is held
	g := gatherings.Get().(*gathering)
	*g = gathering{m: m, now: m.st.Seq, seen: g.seen, rel: g.rel[:0], cs: takeCands(n), scratch: g.scratch, top: g.top}
	if g.seen == nil {
		g.seen = make(map[*unit]bool, n)
	}
	return g
}

// release returns what only the gathering used for the next load's; the
// candidates go on to the load's report (noteLoad gives them back).
func (g *gathering) release() {
	g.among.Release()
	clear(g.seen)
	*g = gathering{seen: g.seen, rel: g.rel[:0], scratch: g.scratch, top: g.top}
	gatherings.Put(g)
}

// gatherings and cands keep a load's arrays for the next: a load gathers
// a few hundred candidates, about 30 KB, and the collector's work slowed
// every memory in the process.
var (
	gatherings = sync.Pool{New: func() any { return new(gathering) }}
	cands      = sync.Pool{New: func() any { return new([]cand) }}
)

// takeCands returns an empty array of candidates with room for n.
func takeCands(n int) []cand {
	p := cands.Get().(*[]cand)
	if cap(*p) < n {
		return make([]cand, 0, n)
	}
	return (*p)[:0]
}

// giveCands returns cs, which nothing reads any longer, for a later load.
func giveCands(cs []cand) {
	clear(cs[:cap(cs)]) // they point into units, which may leave memory
	cs = cs[:0]
	cands.Put(&cs)
}

// add makes u, which the memory holds, a candidate of relevance r, once.
func (g *gathering) add(u *unit, r float64) { g.addWith(u, g.m.meta[u.Seq], r) }

// addWith makes u a candidate of relevance r, once, with the metadata of
// a document added by AddDocuments.
func (g *gathering) addWith(u *unit, meta []byte, r float64) {
	if g.seen[u] {
		return
	}
	g.seen[u] = true
	g.cs = append(g.cs, cand{id: u.ID, role: u.Role, text: u.Text, seq: u.Seq, group: u.Group, tokens: u.Tokens,
		at: u.Time, u: u, meta: meta, fs: u.Facts, sal: g.m.priorityAt(u, g.now), rel: r})
	g.rel = append(g.rel, r)
}

// addRecent makes the newest units still resident candidates: each load
// keeps them (option.WithRecentMessages).
func (g *gathering) addRecent() {
	m := g.m
	for _, u := range m.latest {
		if m.recent(u) {
			g.add(u, g.relOf(u))
		}
	}
}

// recent reports whether u is one of the newest messages a load keeps:
// resident, and saved in the last option.WithRecentMessages steps. m.mu
// is held.
func (m *Memory) recent(u *unit) bool {
	return u != nil && u.Seq >= m.st.Seq-int64(m.opts.Recent) && m.byID[u.ID] == u
}

// relOf returns u's relevance to the query; 0 without one.
func (g *gathering) relOf(u *unit) float64 {
	if u.slot >= 0 && u.slot < len(g.all) {
		return g.all[u.slot]
	}
	return 0
}

// gather makes the first candidates. With a query (q): the best units by
// relevance moved by what ratings taught, the nearest (near), the
// short-term buffer and the units a rated answer to nearly this question
// showed. Without: the newest units of core memory and the short-term
// buffer.
func (g *gathering) gather(q *relevance.Query, near []*unit, local bool) {
	m := g.m
	if q == nil {
		for _, u := range m.newestCore(m.opts.candidates) {
			g.add(u, 0)
		}
		for _, u := range m.short {
			g.add(u, 0)
		}
		g.addRecent()
		return
	}
	var ans map[string]float64
	if m.ratings.Touched() {
		ans = m.ratings.Answers(q.Vec, q.Text)
	}
	// A large memory scores what it gathers, a small one every unit (in
	// process) or the store's nearest.
	docs := make([]int, 0, len(near)+len(m.short)+len(ans))
	for _, u := range near {
		docs = append(docs, u.slot)
	}
	for _, u := range m.short {
		docs = append(docs, u.slot)
	}
	for id := range ans {
		if u := m.byID[id]; u != nil {
			docs = append(docs, u.slot)
		}
	}
	switch c := min(m.opts.candidates, len(m.byID)+1); { // WithCandidates may be far above what is held
	case m.words.rows.Gathers():
		g.among = relevance.Gather(*q, m.words.ix, m.words, m.words.rows.Nearest(q.Vec, 4*c), 4*c, 4*c, docs)
		g.all = g.among.Rel
	case local:
		g.all = relevance.ScoreReusing(*q, m.words.ix, m.words, &g.scratch)
	default: // the store's nearest, and the best by words
		g.among = relevance.Gather(*q, m.words.ix, m.words, nil, c, c, docs)
		g.all = g.among.Rel
	}
	// What ratings taught moves relevance before the best are chosen.
	if m.ratings.Touched() {
		m.ratings.Moved(ans, func(id string, x float64) {
			if u := m.byID[id]; u != nil && u.slot >= 0 && u.slot < len(g.all) {
				g.all[u.slot] *= x
			}
		})
	}
	var best []int
	if g.among.Rel != nil {
		best = g.among.Top(m.opts.candidates)
	} else {
		best = relevance.TopSet(g.all, m.opts.candidates, &g.top)
	}
	for _, d := range best {
		if u := m.words.unit(d); u != nil && g.all[d] > 0 {
			g.add(u, g.all[d])
		}
	}
	for _, u := range near {
		g.add(u, g.relOf(u))
	}
	for _, u := range m.short {
		g.add(u, g.relOf(u))
	}
	g.addRecent()
	// Units a rated answer to this question showed join: shown again.
	for _, id := range slices.Sorted(maps.Keys(ans)) { // an order of their own, not the map's
		if u, ok := m.byID[id]; ok && ans[id] > 0 {
			g.add(u, g.relOf(u))
		}
	}
}

// expand adds what the gathered candidates bring, and returns the slots
// the query is like (facts.Ask), which score weighs.
func (g *gathering) expand(q *relevance.Query, foreign []store.Hit, semantic bool) []slotLike {
	m := g.m
	// A tool call and its results are packed together, so each brings
	// the rest of its group; with a query, a turn is packed on its own.
	for i := 0; i < len(g.cs); i++ {
		if q != nil && (g.cs[i].role == engram.RoleHuman || g.cs[i].role == engram.RoleAI) {
			continue
		}
		for _, u := range m.groups[g.cs[i].group] {
			g.add(u, g.relOf(u))
		}
	}
	m.addForeign(foreign, g.addWith)
	// A candidate one of whose facts has a newer value brings the unit
	// that states it, which the query may not match at all ("Which city
	// does Omar live in?" against "we relocated to Edinburgh"), and its
	// tool group; the score moves to it (supersede).
	for i := 0; i < len(g.cs); i++ {
		n := m.successor(g.cs[i].seq, g.cs[i].fs)
		if n == nil {
			continue
		}
		g.cs[i].newer = n.ID
		g.add(n, g.relOf(n))
		if n.Role != engram.RoleHuman && n.Role != engram.RoleAI {
			for _, u := range m.groups[n.Group] {
				g.add(u, g.relOf(u))
			}
		}
	}
	// The newest statements of the slots the query is like ("Omar
	// employer" for "Where does Omar work?") join too.
	var likes []slotLike
	if semantic && q != nil && len(m.slotVec) > 0 {
		likes = m.likeSlots(q.Vec, g.add, g.relOf)
	}
	g.dependents()
	return likes
}

// dependents adds the turns a candidate cannot be shown without, and
// those that cannot be shown without it, to be packed with it. Neighbours
// are found by slot, the resident units in step order.
func (g *gathering) dependents() {
	m := g.m
	for i := 0; i < len(g.cs); i++ {
		u := g.cs[i].u
		if u == nil || m.words.unit(u.slot) != u {
			continue
		}
		for k := 1; k <= facts.Reach; k++ {
			if u.facts.Qualifies || u.facts.Corrects {
				if v := m.words.unit(m.words.Near(u.slot, -k)); v != nil && facts.Depends(u.facts, v.facts, k) {
					g.add(v, 0)
					if g.cs[i].dep == "" {
						g.cs[i].dep = v.ID
					}
				}
			}
			if v := m.words.unit(m.words.Near(u.slot, k)); v != nil && (v.facts.Qualifies || v.facts.Corrects) && facts.Depends(v.facts, u.facts, k) {
				g.add(v, 0)
			}
		}
	}
}

// score gives every candidate its share of the slots the query is like
// (ask), its fused score, the superseded's score passed on (supersede),
// and its features and what ratings taught of its kind.
func (g *gathering) score(likes []slotLike) {
	ask(g.cs, g.rel, likes)
	score(g.cs, g.rel, g.m.lambda())
	supersede(g.cs)
	g.kinds()
}

// kinds sets each candidate's features as the load weighs it, and what
// ratings taught of the kinds of unit that answer
// (credit.Ledger.Correction), the factor pack gives its weight.
func (g *gathering) kinds() {
	for i := range g.cs {
		c := &g.cs[i]
		age := max(0, g.now-1-c.seq)
		c.f = engram.Features{Relevance: c.rel, Recency: credit.Recency(age), Tokens: c.tokens, Role: c.role, AgeSteps: age}
		if c.u != nil {
			c.f.Flags, c.f.Retrieved = c.u.Flags, int(c.u.Retrieved)
		}
		c.kind = g.m.ratings.Correction(c.f)
	}
}

// addForeign adds the units other writers of the namespace stored, which
// this memory has not indexed: their relevance is the cosine part alone,
// relative to the nearest hit's.
func (m *Memory) addForeign(hits []store.Hit, add func(*unit, []byte, float64)) {
	if len(hits) == 0 {
		return
	}
	best := hits[0].Similarity
	for _, h := range hits {
		if u, meta, err := fromRecord(h.Record); err == nil && best > 0 {
			add(u, meta, (1-relevance.LexicalShare)*max(0, h.Similarity)/best)
		}
	}
}

// newestCore returns the n most recent core units. It scans core memory,
// which only a load without a query does. m.mu must be held.
func (m *Memory) newestCore(n int) []*unit {
	us := slices.Clone(m.heap)
	slices.SortFunc(us, func(a, b *unit) int { return cmp.Compare(b.Seq, a.Seq) })
	return us[:min(n, len(us))]
}
