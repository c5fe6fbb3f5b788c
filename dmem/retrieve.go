package dmem

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem/internal/vecindex"
	"github.com/engram-go/engram/dmem/store"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/credit"
	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/knapsack"
	"github.com/engram-go/engram/internal/memvars"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms"
)

// Retrieval fuses λ·relevance + (1 − λ)·salience. λ starts at lambdaYoung,
// when salience (priority: how surprising a unit was, decayed with age)
// rests on novelty alone, and moves towards lambdaMature as rewards teach
// the value model what matters; half-way after maturity rewards.
const (
	lambdaYoung  = 0.85
	lambdaMature = 0.5
	maturity     = 256
)

// lambda returns the current weight of relevance. m.mu must be held.
func (m *Memory) lambda() float64 {
	r := float64(m.st.Rewards)
	return lambdaYoung - (lambdaYoung-lambdaMature)*r/(r+maturity)
}

// packSharpness is the power of a candidate's score that the selection
// sums: the selection maximises utility per token, and a flatter scale
// lets many half-relevant short turns outbid the one that answers. On real
// dialogue 2 loses 0.11 of recall at 1,024 tokens against 12; 12 and 16 are
// level (README, "What relevance weighs").
const packSharpness = 12

// relevancePrefix is how many leading components of e's vectors relevance
// compares: the GloVe part of engram's own embedder beside its hashed half
// (the hashed half serves admission and merging, which must see numbers;
// relevance measured better on GloVe alone), all of them otherwise.
func relevancePrefix(e embeddings.Embedder) int {
	if x, ok := e.(*embed.Embedder); ok && x.GloVeShare() > 0 && x.GloVeShare() < 1 {
		return embed.GloVeDimensions
	}
	return 0
}

// An in-memory load compares the query with every unit, reading the
// embedding matrix of the words index in one pass, instead of asking the
// chromem-go collection for the nearest: chromem-go sends every document
// through a channel, and on the development set's turns at 10,000 units
// its query took 5.4 ms where the whole load over the matrix took 0.9 ms.
// The collection stays the memory's index of record, kept as units come
// and go.

// cand is a unit considered by one retrieval, copied out of the memory so
// that scoring and packing run without the lock.
type cand struct {
	id     string
	role   engram.Role
	text   string
	seq    int64
	group  int64
	tokens int
	at     time.Time
	vec    []float32
	meta   []byte
	sal    float64 // priority now
	rel    float64 // relevance to the query
	score  float64
	dep    string        // id of the candidate it cannot be shown without (see depends), or ""
	fs     []engram.Fact // the facts it states
	newer  string        // id of the candidate that supersedes it (see supersede), or ""
	u      *unit         // the resident unit, nil for another writer's
	f      engram.Features
	kind   float64 // what ratings taught of units of its kind: a factor on its packed weight
}

// LoadMemoryVariables returns the history to show the model: among the
// units nearest to the query (inputs[input key]), the best by its words and
// the short-term buffer, those that maximise fused relevance and salience
// within the token budget
// (internal/knapsack), in chronological order, one line per unit. A human
// turn and its reply are kept or dropped together. A missing or empty query
// chooses by salience among the most recent units (the newest of core
// memory and the short-term buffer). The input key is found as on save
// ([WithInputKey]): several keys and none set, a missing input key or a
// non-string query give [engram.ErrInvalidInput].
func (m *Memory) LoadMemoryVariables(ctx context.Context, inputs map[string]any) (map[string]any, error) {
	if err := memvars.Context(ctx); err != nil {
		return nil, fmt.Errorf("dmem: load: %w", err)
	}
	query, err := memvars.Query(inputs, m.opts.inputKey, m.opts.memoryKey)
	if err != nil {
		return nil, fmt.Errorf("dmem: load: %w", err)
	}
	kept, err := m.choose(ctx, query, m.opts.budget)
	if err != nil {
		return nil, err
	}
	if m.opts.returnMessages {
		msgs := make([]llms.ChatMessage, 0, len(kept))
		hs := headers(kept)
		for i, c := range kept {
			if hs != nil && hs[i] != "" {
				msgs = append(msgs, llms.SystemChatMessage{Content: strings.TrimSuffix(hs[i], "\n")})
			}
			msgs = append(msgs, memvars.Returned(c.role, c.text, ""))
		}
		return map[string]any{m.opts.memoryKey: msgs}, nil
	}
	return map[string]any{m.opts.memoryKey: m.render(kept)}, nil
}

// LastLoad returns the ids of the units the latest LoadMemoryVariables
// returned, in the order of the history's lines; nil before the first load
// and after Clear. Unlike the rendered text, ids tell identical texts apart:
// pass them to [Memory.ExplainUnit] to see why each line was kept.
func (m *Memory) LastLoad() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return slices.Clone(m.lastLoad)
}

// history renders what a load for query returns within budget tokens.
func (m *Memory) history(ctx context.Context, query string, budget int) (string, error) {
	kept, err := m.choose(ctx, query, budget)
	if err != nil {
		return "", err
	}
	return m.render(kept), nil
}

// choose selects what a load for query returns within budget tokens, in
// chronological order, and notes it as retrieved.
func (m *Memory) choose(ctx context.Context, query string, budget int) ([]cand, error) {
	cs, qkey, err := m.search(ctx, query)
	if err != nil {
		return nil, err
	}
	kept, err := m.pack(cs, budget)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(kept))
	for i, c := range kept {
		ids[i] = c.id
	}
	m.noteLoad(query, qkey, budget, cs, kept, ids)
	return kept, nil
}

// render returns kept as history lines, one per unit, under date headers
// when they were said on more than one day (memvars.DayHeaders).
func (m *Memory) render(kept []cand) string {
	var sb strings.Builder
	hs := headers(kept)
	for i, c := range kept {
		if i > 0 {
			sb.WriteByte('\n')
		}
		if hs != nil && hs[i] != "" {
			sb.WriteString(hs[i])
		}
		sb.WriteString(strings.TrimSuffix(m.line(c.role, c.text), "\n"))
	}
	return sb.String()
}

// headers returns the date header of each kept unit (memvars.DayHeaders).
func headers(kept []cand) []string {
	times := make([]time.Time, len(kept))
	for i, c := range kept {
		times[i] = c.at
	}
	return memvars.DayHeaders(times)
}

// search gathers and scores candidates for query. The semantic candidates
// are the nearest core units by one vector query (no second scan of the
// embeddings); the lexical ones the best by internal/relevance over the
// words index, which also scores the semantic ones; then the short-term
// buffer and the group partners of tool calls and results. A memory in
// process (no store) skips the vector index and scores every unit; with
// engram's own embedder it then embeds the query's GloVe part alone, all
// that relevance compares.
//
// It returns the candidates and the query's key for what ratings taught
// (credit.Ledger): the normalised part of its vector relevance compares,
// nil without a query.
func (m *Memory) search(ctx context.Context, query string) ([]cand, []float32, error) {
	m.mu.RLock()
	local, dim := m.w == nil, m.st.Dim
	m.mu.RUnlock()
	var qvec []float32
	part := false // qvec is the GloVe part alone, its dimensions checked
	if strings.TrimSpace(query) != "" {
		own, _ := m.opts.embedder.(*embed.Embedder)
		if part = local && m.words.prefix > 0 && own != nil && (dim == 0 || own.Dimensions() == dim); part {
			if err := ctx.Err(); err != nil {
				return nil, nil, fmt.Errorf("dmem: embed query: %w", err)
			}
			qvec = own.GloVePart(query)
		} else {
			v, err := m.opts.embedder.EmbedQuery(ctx, query)
			if err != nil {
				return nil, nil, fmt.Errorf("dmem: embed query: %w", err)
			}
			if qvec, err = vecindex.Normalised(v); err != nil {
				return nil, nil, fmt.Errorf("dmem: embed query: %w", err)
			}
		}
	}

	if qvec != nil {
		m.slotVectors(ctx)
	}
	m.mu.RLock()
	if m.closed {
		m.mu.RUnlock()
		return nil, nil, fmt.Errorf("dmem: load: %w", engram.ErrClosed)
	}
	if qvec != nil && m.st.Dim != 0 && len(qvec) != m.st.Dim && !part {
		m.mu.RUnlock()
		return nil, nil, fmt.Errorf("dmem: query embedding has %d dimensions, memory has %d: %w", len(qvec), m.st.Dim, engram.ErrInvalidInput)
	}
	m.mu.RUnlock()
	semantic := qvec != nil && !vecindex.Zero(qvec)
	var hits []store.Hit
	if m.w != nil && semantic {
		// The store searches outside the lock: it may be a round trip away.
		var err error
		if hits, err = m.w.store.Query(ctx, m.w.ns, qvec, m.opts.candidates); err != nil {
			return nil, nil, fmt.Errorf("dmem: load: %w", err)
		}
	}

	m.mu.RLock()
	defer m.mu.RUnlock()
	now := m.st.Seq
	lambda := m.lambda()
	seen := make(map[*unit]bool, 2*m.opts.candidates+len(m.short))
	var cs []cand
	var rel []float64 // relevance by candidate
	add := func(u *unit, r float64) {
		if seen[u] {
			return
		}
		seen[u] = true
		cs = append(cs, cand{id: u.ID, role: u.Role, text: u.Text, seq: u.Seq, group: u.Group, tokens: u.Tokens,
			at: u.Time, u: u, vec: u.Embedding, meta: u.Meta, fs: u.Facts, sal: m.priorityAt(u, now), rel: r})
		rel = append(rel, r)
	}
	var near []*unit        // resident units among the nearest
	var foreign []store.Hit // the nearest that other writers of the namespace stored
	switch {
	case m.w != nil && semantic:
		for _, h := range hits {
			id := idOf(h.Seq)
			if u, ok := m.byID[id]; ok {
				near = append(near, u)
			} else if _, gone := m.gone[id]; !gone {
				foreign = append(foreign, h)
			}
		}
	case semantic && local:
		// Small enough to compare the query with every unit (below):
		// cheaper than the vector index's scan, and exact.
	case semantic:
		hs, err := m.ix.Nearest(ctx, qvec, m.opts.candidates)
		if err != nil {
			return nil, nil, err
		}
		for _, h := range hs {
			if u, ok := m.byID[h.ID]; ok {
				near = append(near, u)
			}
		}
	}
	relOf := func(*unit) float64 { return 0 }
	var qkey []float32
	if strings.TrimSpace(query) != "" {
		docs := make([]int, 0, len(near)+len(m.short))
		for _, u := range near {
			docs = append(docs, u.slot)
		}
		for _, u := range m.short {
			docs = append(docs, u.slot)
		}
		qkey = embed.Normalized(m.words.cut(qvec))
		q := relevance.NewQuery(query, qkey)
		q.Off = relevance.Off(ctx)
		var all []float64
		if local {
			all = relevance.Score(q, m.words.ix, m.words)
		} else {
			all = relevance.ScoreSubset(q, m.words.ix, m.words, docs)
		}
		relOf = func(u *unit) float64 {
			if u.slot >= 0 && u.slot < len(all) {
				return all[u.slot]
			}
			return 0
		}
		for _, d := range relevance.Top(all, m.opts.candidates) {
			if u := m.words.unit(d); u != nil && all[d] > 0 {
				add(u, all[d])
			}
		}
		for _, u := range near {
			add(u, relOf(u))
		}
		for _, u := range m.short {
			add(u, relOf(u))
		}
		// Units a rated answer to nearly this question showed join, so
		// that one rated up can be shown again.
		ans := m.ratings.Answers(qkey)
		shown := make([]string, 0, len(ans))
		for id, x := range ans {
			if x > 0 {
				shown = append(shown, id)
			}
		}
		slices.Sort(shown) // candidates in an order of their own, not the map's
		for _, id := range shown {
			if u, ok := m.byID[id]; ok {
				add(u, relOf(u))
			}
		}
		// What ratings taught moves relevance before anything reads it.
		if m.ratings.Touched() {
			for i := range cs {
				rel[i] *= m.ratings.Multiplier(cs[i].id, ans)
				cs[i].rel = rel[i]
			}
		}
		// A tool call and its results are packed together, so each
		// brings the rest of its group; a turn is packed on its own.
		for i := 0; i < len(cs); i++ {
			if cs[i].role == engram.RoleHuman || cs[i].role == engram.RoleAI {
				continue
			}
			for _, u := range m.groups[cs[i].group] {
				add(u, relOf(u))
			}
		}
		m.addForeign(foreign, add)
	} else {
		for _, u := range m.newestCore(m.opts.candidates) {
			add(u, 0)
		}
		for _, u := range m.short {
			add(u, 0)
		}
		for i := 0; i < len(cs); i++ {
			for _, u := range m.groups[cs[i].group] {
				add(u, 0)
			}
		}
	}
	// A candidate one of whose facts has a newer value brings the unit
	// that states it, which the query may not match at all ("Which city
	// does Omar live in?" against "we relocated to Edinburgh"), and its
	// tool group; the score moves to it below.
	for i := 0; i < len(cs); i++ {
		n := m.successor(cs[i].seq, cs[i].fs)
		if n == nil {
			continue
		}
		cs[i].newer = n.ID
		add(n, relOf(n))
		if n.Role != engram.RoleHuman && n.Role != engram.RoleAI {
			for _, u := range m.groups[n.Group] {
				add(u, relOf(u))
			}
		}
	}
	// The newest statements of the slots the query is like ("Omar
	// employer" for "Where does Omar work?") join too.
	var likes []slotLike
	if semantic && len(m.slotVec) > 0 && strings.TrimSpace(query) != "" {
		likes = m.likeSlots(embed.Normalized(m.words.cut(qvec)), add, relOf)
	}
	// The turns a candidate cannot be shown without, and those that
	// cannot be shown without it, join it, and are packed with it.
	// Neighbours are found by slot, the resident units in step order.
	for i := 0; i < len(cs); i++ {
		u := cs[i].u
		if u == nil || m.words.unit(u.slot) != u {
			continue
		}
		for k := 1; k <= facts.Reach; k++ {
			if u.facts.Qualifies || u.facts.Corrects {
				if v := m.words.unit(m.words.Near(u.slot, -k)); v != nil && facts.Depends(u.facts, v.facts, k) {
					add(v, 0)
					if cs[i].dep == "" {
						cs[i].dep = v.ID
					}
				}
			}
			if v := m.words.unit(m.words.Near(u.slot, k)); v != nil && (v.facts.Qualifies || v.facts.Corrects) && facts.Depends(v.facts, u.facts, k) {
				add(v, 0)
			}
		}
	}
	ask(cs, rel, likes)
	score(cs, rel, lambda)
	supersede(cs)
	m.kinds(cs, now)
	return cs, qkey, nil
}

// kinds sets each candidate's features as the load weighs it, and what
// ratings taught of the kinds of unit that answer
// (credit.Ledger.Correction), the factor pack gives its weight. m.mu is
// held (for reading).
func (m *Memory) kinds(cs []cand, now int64) {
	for i := range cs {
		c := &cs[i]
		age := max(0, now-1-c.seq)
		c.f = engram.Features{Relevance: c.rel, Recency: credit.Recency(age), Tokens: c.tokens, Role: c.role, AgeSteps: age}
		if c.u != nil {
			c.f.Flags, c.f.Retrieved = c.u.Flags, c.u.Retrieved
		}
		c.kind = m.ratings.Correction(c.f)
	}
}

// addForeign adds the units other writers of the namespace stored, which
// this memory has not indexed: their relevance is the cosine part alone,
// relative to the nearest hit's.
func (m *Memory) addForeign(hits []store.Hit, add func(*unit, float64)) {
	if len(hits) == 0 {
		return
	}
	best := hits[0].Similarity
	for _, h := range hits {
		if u, err := fromRecord(h.Record); err == nil && best > 0 {
			add(u, (1-relevance.LexicalShare)*max(0, h.Similarity)/best)
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

// score sets each candidate's fused score: λ·relevance + (1 − λ)·salience,
// both scaled to [0, 1] by their maximum over the candidates. Relevance is
// engram's one measure (internal/relevance), as in ratedistortion.
func score(cs []cand, rel []float64, lambda float64) {
	if len(cs) == 0 {
		return
	}
	maxRel, maxSal := 0.0, 0.0
	for i, c := range cs {
		maxRel = max(maxRel, rel[i])
		maxSal = max(maxSal, c.sal)
	}
	for i := range cs {
		var r, sal float64
		if maxRel > 0 {
			r = rel[i] / maxRel
		}
		if maxSal > 0 {
			sal = cs[i].sal / maxSal
		}
		cs[i].score = lambda*r + (1-lambda)*sal
	}
}

// pack selects the candidate groups that maximise the summed squared score
// within budget tokens — squared, so that one strong match outweighs
// several weak ones of the same cost — and returns their units in
// chronological order. The rendered lines cost exactly the sum of the
// units' cached counts, the last without its newline.
func (m *Memory) pack(cs []cand, budget int) ([]cand, error) {
	var itemOf map[int64]int // for tool groups, made when first needed
	items := make([]knapsack.Item, 0, len(cs))
	members := make([][]int, 0, len(cs))
	itemOfID := make(map[string]int, len(cs))
	order := make([]int, len(cs)) // oldest first: a turn after what it depends on
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(cs[a].seq, cs[b].seq) })
	for _, i := range order {
		c := cs[i]
		// A message is selected on its own (see ratedistortion's load); a
		// tool call and its results only together, and a turn that
		// depends on another with it.
		k, ok := 0, false
		if c.dep != "" {
			// A correction stays with what it corrects while the two fit
			// the budget; a qualifying turn within half of it, so that a
			// chain of "but"s cannot grow past what a load can show.
			if k, ok = itemOfID[c.dep]; ok && c.u != nil && items[k].Cost+max(c.tokens, 1) > facts.Room(c.u.facts, budget) {
				ok = false
			}
		}
		if !ok && c.role != engram.RoleHuman && c.role != engram.RoleAI {
			if itemOf == nil {
				itemOf = make(map[int64]int)
			}
			if k, ok = itemOf[c.group]; !ok {
				itemOf[c.group] = len(items)
			}
		}
		if !ok {
			k = len(items)
			items = append(items, knapsack.Item{})
			members = append(members, nil)
		}
		items[k].Cost += max(c.tokens, 1)
		items[k].Weight += math.Pow(c.score, packSharpness)*c.kind + 1e-6
		members[k] = append(members[k], i)
		itemOfID[c.id] = k
	}
	room := budget
	for try := 0; ; try++ {
		sol, err := knapsack.Solve(knapsack.Problem{Items: items, Budget: room})
		if err != nil {
			return nil, fmt.Errorf("dmem: pack: %w", err)
		}
		var kept []cand
		for _, k := range sol.Selected {
			for _, i := range members[k] {
				kept = append(kept, cs[i])
			}
		}
		slices.SortFunc(kept, func(a, b cand) int { return cmp.Compare(a.seq, b.seq) })
		over := m.cost(kept) - budget
		if over <= 0 {
			return kept, nil
		}
		// The date headers, or dropping the last newline (the tokenizer
		// then merges differently), cost what the items do not: shrink
		// the room by the excess and solve again; past a few tries, drop
		// the units of least score until it fits.
		if room -= over; room <= 0 || try == 8 {
			for len(kept) > 0 && m.cost(kept) > budget {
				worst := 0
				for j, c := range kept {
					if c.score < kept[worst].score {
						worst = j
					}
				}
				kept = slices.Delete(kept, worst, worst+1)
			}
			return kept, nil
		}
	}
}

// cost returns the exact token count of the rendered lines.
func (m *Memory) cost(kept []cand) int {
	if len(kept) == 0 {
		return 0
	}
	n := 0
	for _, c := range kept {
		n += c.tokens
	}
	for _, h := range headers(kept) {
		if h != "" {
			n += m.opts.counter(h)
		}
	}
	last := kept[len(kept)-1]
	return n - last.tokens + m.opts.counter(strings.TrimSuffix(m.line(last.role, last.text), "\n"))
}

// noteRetrieved remembers what a search returned, for consolidation, and
// for LastLoad if it was a LoadMemoryVariables.
func (m *Memory) noteRetrieved(ids []string, load bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.retrieved = ids
	if load {
		m.lastLoad = ids
	}
	for _, id := range ids {
		if u, ok := m.byID[id]; ok {
			u.Retrieved++
			m.dirty[u] = struct{}{}
		}
	}
}
