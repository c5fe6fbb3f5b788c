package dmem

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/knapsack"
	"github.com/engram-go/engram/internal/memvars"
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
// level (docs/measurements.md, "What relevance weighs").
const packSharpness = 12

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
	recent bool    // one of the newest messages, which a load keeps (option.WithRecentMessages)
}

// LoadMemoryVariables returns the history to show the model: among the
// units nearest to the query (inputs[input key]), the best by its words and
// the short-term buffer, those that maximise fused relevance and salience
// within the token budget
// (internal/knapsack), in chronological order, one line per unit. Each
// message is selected on its own; a tool call and its results, and a
// correction with what it corrects, are kept or dropped together. A missing or empty query
// chooses by salience among the most recent units (the newest of core
// memory and the short-term buffer). The input key is found as on save
// ([option.WithInputKey]): several keys and none set, a missing input key or a
// non-string query give [engram.ErrInvalidInput].
func (m *Memory) LoadMemoryVariables(ctx context.Context, inputs map[string]any) (map[string]any, error) {
	query, err := m.opts.Query(ctx, inputs)
	if err != nil {
		return nil, err
	}
	kept, err := m.choose(ctx, query, m.opts.Budget)
	if err != nil {
		return nil, err
	}
	if m.opts.ReturnMessages {
		msgs := make([]llms.ChatMessage, 0, len(kept))
		hs := headers(kept)
		for i, c := range kept {
			if hs != nil && hs[i] != "" {
				msgs = append(msgs, llms.SystemChatMessage{Content: strings.TrimSuffix(hs[i], "\n")})
			}
			msgs = append(msgs, memvars.Returned(c.role, c.text, ""))
		}
		return map[string]any{m.opts.MemoryKey: msgs}, nil
	}
	return map[string]any{m.opts.MemoryKey: m.render(kept)}, nil
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
	cs, qkey, epoch, err := m.search(ctx, query)
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
	m.noteLoad(query, qkey, budget, cs, kept, ids, epoch)
	return kept, nil
}

// render returns kept as history lines, one per unit, under date headers
// when they were said on more than one day (memvars.DayHeaders).
func (m *Memory) render(kept []cand) string {
	var sb strings.Builder
	hs := headers(kept)
	size := 0
	for _, c := range kept {
		size += len(c.text) + 16
	}
	sb.Grow(size)
	for i, c := range kept {
		if i > 0 {
			sb.WriteByte('\n')
		}
		if hs != nil && hs[i] != "" {
			sb.WriteString(hs[i])
		}
		memvars.WriteLine(&sb, m.prefix(c.role), c.text)
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
	var itemOf map[int64]int    // for tool groups, made when first needed
	var itemOfID map[string]int // for turns that depend on another, made if one does
	items := make([]knapsack.Item, 0, len(cs))
	members := make([][]int, 0, len(cs))
	// order, oldest first (a turn after what it depends on); own, each
	// candidate's index, so that an item of one is a slice of it.
	order, own := make([]int, len(cs)), make([]int, len(cs))
	for i := range order {
		order[i], own[i] = i, i
		if cs[i].dep != "" && itemOfID == nil {
			itemOfID = make(map[string]int, len(cs))
		}
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
			members = append(members, own[i:i:i+1])
		}
		items[k].Cost += max(c.tokens, 1)
		items[k].Weight += math.Pow(c.score, packSharpness)*c.kind + 1e-6
		members[k] = append(members[k], i)
		if itemOfID != nil {
			itemOfID[c.id] = k
		}
	}
	// The newest messages are kept whatever their score, each item that
	// fits the room, while the kept fit the budget.
	var recent []int
	for k, is := range members {
		if slices.ContainsFunc(is, func(i int) bool { return cs[i].recent }) {
			recent = append(recent, k)
		}
	}
	forced, room := knapsack.Force(items, recent, m.opts.RecentRoom(), budget), budget
	for try := 0; ; try++ {
		sol, err := knapsack.Solve(knapsack.Problem{Items: items, Budget: room})
		if errors.Is(err, knapsack.ErrInfeasible) && len(forced) > 0 {
			// The headers took the room the newest needed: they compete.
			for _, k := range forced {
				items[k].Forced = false
			}
			forced = nil
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("dmem: pack: %w", err)
		}
		n := 0
		for _, k := range sol.Selected {
			n += len(members[k])
		}
		kept := make([]cand, 0, n)
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
			n += m.opts.Counter(h)
		}
	}
	last := kept[len(kept)-1]
	return n - last.tokens + m.opts.Counter(strings.TrimSuffix(m.line(last.role, last.text), "\n"))
}

// noteRetrieved remembers what a search returned, for consolidation, and
// for LastLoad if it was a LoadMemoryVariables.
func (m *Memory) noteRetrieved(ids []string, load bool, epoch int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.retrievedLocked(ids, load, epoch)
}

// retrievedLocked is noteRetrieved with m.mu held. It reports whether it
// recorded them: not when a Clear came since the search (epoch, the
// Clears it had seen), for the ids are of units gone, and a new unit may
// take one of them.
func (m *Memory) retrievedLocked(ids []string, load bool, epoch int64) bool {
	if m.cleared != epoch {
		return false
	}
	m.retrieved = ids
	if load {
		m.lastLoad = ids
	}
	for _, id := range ids {
		if u, ok := m.byID[id]; ok {
			u.Retrieved = addCount(u.Retrieved, 1)
			m.dirty[u] = struct{}{}
		}
	}
	return true
}
