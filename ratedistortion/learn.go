package ratedistortion

import (
	"cmp"
	"slices"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/internal/credit"
)

// referralShare is the largest share of the pool a word may appear in and
// still count as a reference: "Lisbon" said again points back to the turn
// that said it first; "today" does not.
const referralShare = 0.02

// learnFromReferral teaches the gate, label-free, from what the model was
// shown: a unit the last load kept is labelled 1 if the turns saved since
// use one of its rarer words — the conversation came back to it — and 0 if
// not. In a chain the save after a load is the same turn, so the query's
// own words count: the user coming back to "Lisbon" is the need the label
// is about (and, measured, dropping them made the gate worse than the
// hand-set weights). Rarity is judged on the pool before these turns, so a
// word both sides of the turn repeat still counts. Each load is
// learned from once, by the save that follows it; the work is bounded by
// the units one load keeps. b.mu is held.
func (b *Buffer) learnFromReferral(added []*entry) {
	s := b.last
	if b.opts.Gate == nil || s == nil || s.learned {
		return
	}
	s.learned = true
	said := make(map[string]int) // word → how many of the added turns hold it
	for _, e := range added {
		ts := b.termsOf(e)
		in := make(map[string]bool, len(ts))
		for _, t := range ts {
			if !in[t] {
				in[t] = true
				said[t]++
			}
		}
	}
	before := len(b.pool) - len(added)
	maxDF := max(2, int(referralShare*float64(before)))
	var yes, no []int
	for i, u := range s.units {
		if !s.kept[i] {
			continue
		}
		referred := false
		for _, t := range b.termsOf(u.e) {
			if n := said[t]; n > 0 && b.lexical().DocFreq(t)-n <= maxDF {
				referred = true
				break
			}
		}
		if referred {
			yes = append(yes, i)
		} else {
			no = append(no, i)
		}
	}
	// Most of what a load keeps is never referred to again. Learning from
	// as many unreferred units as referred ones (at least one) keeps the
	// gate's scores near ½ for an ordinary unit, so that it corrects the
	// scorer up and down instead of shrinking everything.
	for _, i := range yes {
		b.opts.Gate.Observe(s.units[i].features, 1)
	}
	for k := range min(len(no), max(1, len(yes))) {
		// Spread the choice over the unreferred units, load after load.
		i := no[(k*7919+int(b.seq))%len(no)]
		b.opts.Gate.Observe(s.units[i].features, 0)
	}
}

// learnFromRating teaches what rated the last load, adv the rating less
// the running mean, from the units it showed that most likely answered —
// the most relevant few — as the load scored them: the ledger's own gate
// (credit.Ledger.Learn), which corrects every later load's utilities, and
// a learned gate given by [option.WithGate]. b.mu is held.
func (b *Buffer) learnFromRating(adv float64) {
	s := b.last
	if s == nil || adv == 0 {
		return
	}
	top := make([]int, 0, len(s.units))
	for i := range s.units {
		if s.kept[i] {
			top = append(top, i)
		}
	}
	slices.SortStableFunc(top, func(x, y int) int {
		return cmp.Compare(s.units[y].features.Relevance, s.units[x].features.Relevance)
	})
	fs := make([]engram.Features, 0, credit.Answerers)
	for _, i := range top[:min(len(top), credit.Answerers)] {
		fs = append(fs, s.units[i].features)
	}
	b.credit.Learn(fs, adv)
	if b.opts.Gate != nil {
		for _, f := range fs {
			b.opts.Gate.Hindsight(f, adv)
		}
	}
}
