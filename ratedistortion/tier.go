package ratedistortion

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/guard"
	"github.com/engram-go/engram/internal/memvars"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/internal/text"
)

// maxCached is how many units recalled from the long-term tier stay
// cached, prepared (embedded, counted, analysed), for the next loads that
// recall them; past it the least recently used quarter goes. A load's
// guests — what the tier returned for it — are scored with the pool
// (relevance.ScoreWithGuests), kept or dropped like its units, and
// rendered in time order among them, but never demoted again: the tier
// holds them.
const maxCached = 512

// handDown passes the units the cap let go to the long-term tier, oldest
// first. One hand-down runs at a time, and a batch leaves the queue only
// once the tier took it: a save that finds one running leaves its units
// queued and returns, so that a tier stuck past a caller's deadline (the
// guard returns at it, and the call runs on) makes no later save wait on
// it. A failure of the tier is not the save's: it is logged and counted
// ([Buffer.Stats]), and the units stay queued for the next save to hand
// down (a panicking tier leaves them queued too), unless the buffer is
// cleared meanwhile.
func (b *Buffer) handDown(ctx context.Context) {
	if b.opts.longTerm == nil {
		return
	}
	b.mu.Lock()
	if b.handing || len(b.demoted) == 0 {
		b.mu.Unlock()
		return
	}
	ds, cleared := slices.Clone(b.demoted), b.cleared
	b.handing = true
	b.mu.Unlock()
	_, err := guard.Do(ctx, b.opts.Guards.LongTerm, "demote", func(ctx context.Context) (struct{}, error) {
		taken := false
		// Runs when the tier returns, however late: only then may the
		// next hand-down start.
		defer func() { b.handedDown(len(ds), cleared, taken) }()
		err := b.opts.longTerm.Demote(ctx, ds)
		taken = err == nil
		return struct{}{}, err
	})
	if !guard.Called(err) {
		b.handedDown(len(ds), cleared, false)
	}
	if err != nil {
		b.opts.Logger.Warn("ratedistortion: long-term tier: demote failed; will retry",
			"units", len(ds), "error", err)
		return
	}
	b.opts.Logger.Debug("ratedistortion: long-term tier: demoted units", "units", len(ds))
}

// handedDown ends a hand-down of the first n queued units: if the tier
// took them, and the buffer was not cleared since, they leave the queue.
func (b *Buffer) handedDown(n int, cleared int64, taken bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.handing = false
	if taken && b.cleared == cleared {
		// Only this hand-down takes from the front; saves append behind.
		b.demoted = slices.Delete(b.demoted, 0, n)
	}
}

// recall asks the long-term tier what it would show for query within the
// budget and prepares entries for the units not cached yet. It returns the
// origins of everything recalled, and the new entries. A failing tier (an
// error, a panic, or still running at the caller's deadline) is logged and
// counted, and the load goes on with the pool alone.
func (b *Buffer) recall(ctx context.Context, query string) (map[string]bool, []*entry) {
	if b.opts.longTerm == nil || query == "" {
		return nil, nil
	}
	us, err := guard.Do(ctx, b.opts.Guards.LongTerm, "recall", func(ctx context.Context) ([]engram.Unit, error) {
		return b.opts.longTerm.Recall(ctx, query, b.opts.Budget)
	})
	if err != nil {
		b.opts.Logger.Warn("ratedistortion: long-term tier: recall failed; loading from the pool alone", "error", err)
		return nil, nil
	}
	got := make(map[string]bool, len(us))
	var fresh []engram.Unit
	b.mu.Lock()
	for _, u := range us {
		// Cleaned as a saved text is: a tier may return anything.
		u.Text = memvars.Clean(u.Text)
		if u.ID == "" || strings.TrimSpace(u.Text) == "" || got[u.ID] {
			continue
		}
		got[u.ID] = true
		if b.recalled[u.ID] == nil {
			fresh = append(fresh, u)
		}
	}
	b.mu.Unlock()
	if len(fresh) == 0 {
		return got, nil
	}
	ds := make([]draft, len(fresh))
	for i, u := range fresh {
		ds[i] = draft{role: u.Role, text: u.Text}
	}
	es, err := b.prepare(ctx, ds)
	if err != nil {
		b.opts.Logger.Warn("ratedistortion: long-term tier: recalled units not prepared; loading from the pool alone", "error", err)
		return nil, nil
	}
	for i, e := range es {
		u := fresh[i]
		e.origin = u.ID
		e.unit.ID, e.unit.Seq, e.unit.Group = "lt:"+u.ID, u.Seq, -1
		if !u.Time.IsZero() {
			e.unit.Time = u.Time
		}
		e.unit.Flags |= u.Flags &^ engram.FlagPinned
		e.unit.Facts = facts.Clean(u.Facts) // read when the tier stored it
	}
	return got, es
}

// cache adds the recalled entries to the cache, marks what the tier
// returned as used by this load, trims the cache, and makes the guests of
// this load what the tier returned: only they compete with the pool, since
// units recalled for other queries, scored again, crowd out the pool's
// (on the development set's long replay they cost 0.07 of recall). Entries
// another load cached first are skipped. b.mu is held.
func (b *Buffer) cache(got map[string]bool, es []*entry) {
	b.loads++
	for _, e := range es {
		if b.recalled[e.origin] == nil {
			b.recalled[e.origin] = e
		}
	}
	var gs []*entry
	for id := range got {
		if e := b.recalled[id]; e != nil {
			e.used = b.loads
			gs = append(gs, e)
		}
	}
	slices.SortFunc(gs, func(x, y *entry) int { return cmp.Compare(x.unit.Seq, y.unit.Seq) })
	if len(b.recalled) > maxCached {
		all := make([]*entry, 0, len(b.recalled))
		for _, e := range b.recalled {
			all = append(all, e)
		}
		slices.SortFunc(all, func(x, y *entry) int { return cmp.Compare(y.used, x.used) })
		for _, e := range all[maxCached*3/4:] {
			delete(b.recalled, e.origin)
			// The tier keeps its own account of the unit's ratings; here
			// it would only grow the ledger by every unit ever recalled.
			b.credit.Forget(e.unit.ID)
		}
	}
	b.setGuests(gs)
}

// setGuests makes gs the guests and indexes them. b.mu is held.
func (b *Buffer) setGuests(gs []*entry) {
	b.guests = gs
	b.gindex = relevance.NewIndex()
	clear(b.guestAt)
	for i, e := range gs {
		if e.unit.Group < 0 {
			e.unit.Group = b.group
			b.group++
			b.number(e)
		}
		b.gindex.Add(i, text.Excerpt(e.unit.Text), -1, b.indexTerms(e))
		b.guestAt[e.unit.Seq] = i
	}
}

// entryAt returns the pool's unit d, or for d past the pool the guest
// d − len(pool): the numbering relevance scores them in.
func (b *Buffer) entryAt(d int) *entry {
	if d < len(b.pool) {
		return b.pool[d]
	}
	return b.guests[d-len(b.pool)]
}

// chronological returns, appended to order[:0], the pool's units and the
// guests, numbered as entryAt does, in time order: the pool in its own order, each guest
// before the first pool unit saved after it. b.mu is held.
func (b *Buffer) chronological(order []int) []int {
	n, m := len(b.pool), len(b.guests)
	order = order[:0]
	if m == 0 {
		for i := range n {
			order = append(order, i)
		}
		return order
	}
	gs := make([]int, m)
	for j := range gs {
		gs[j] = j
	}
	slices.SortStableFunc(gs, func(x, y int) int {
		if c := b.guests[x].unit.Time.Compare(b.guests[y].unit.Time); c != 0 {
			return c
		}
		return cmp.Compare(b.guests[x].unit.Seq, b.guests[y].unit.Seq)
	})
	i := 0
	for _, j := range gs {
		t := b.guests[j].unit.Time
		for i < n && !b.pool[i].unit.Time.After(t) {
			order = append(order, i)
			i++
		}
		order = append(order, n+j)
	}
	for ; i < n; i++ {
		order = append(order, i)
	}
	return order
}

// guestCorpus is the guests as a relevance.Corpus; a guest's neighbours are
// the guests next to it in the long-term tier.
type guestCorpus struct{ b *Buffer }

func (g guestCorpus) Len() int                      { return len(g.b.guests) }
func (g guestCorpus) Vector(i int) relevance.Vector { return g.b.guests[i].vec }
func (g guestCorpus) Dense(i int) []float32         { return g.b.guests[i].vec.DenseOrNil() }
func (g guestCorpus) Near(i, k int) int {
	if j, ok := g.b.guestAt[g.b.guests[i].unit.Seq+int64(k)]; ok {
		return j
	}
	return -1
}

// tier returns the tier a unit came from.
func (e *entry) tier() engram.Tier {
	if e.origin != "" {
		return engram.TierLongTerm
	}
	return engram.TierWorking
}

// showedLongTerm reports whether the last load returned a unit recalled
// from the long-term tier. b.mu is held.
func (b *Buffer) showedLongTerm() bool {
	if b.last == nil {
		return false
	}
	for i, u := range b.last.units {
		if b.last.kept[i] && u.e.origin != "" {
			return true
		}
	}
	return false
}

// idOf is the id of the pool's own unit seq.
func idOf(seq int64) string { return "u" + strconv.FormatInt(seq, 10) }
