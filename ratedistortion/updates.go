package ratedistortion

import (
	"time"

	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/knapsack"
	"github.com/engram-go/engram/internal/memvars"
	"github.com/engram-go/engram/internal/text"
)

// When what a load keeps was said on more than one day, each day's units
// come under a header naming the day (memvars.DayHeaders), counted in the
// budget.

// keep marks the units of sol's items kept.
func (s *selection) keep(sol knapsack.Solution) {
	for i := range s.kept {
		s.kept[i] = false
	}
	for _, k := range sol.Selected {
		for _, i := range s.members[k] {
			s.kept[i] = true
		}
	}
}

// dateHeaders sets the headers of the kept units and their cost (see
// memvars.DayHeaders).
func (s *selection) dateHeaders(count func(string) int) {
	s.headers, s.headTok = nil, 0
	// Most loads keep units of one day: find out before allocating.
	var first *time.Time
	multi := false
	for i := range s.units {
		if !s.kept[i] {
			continue
		}
		t := &s.units[i].e.unit.Time
		if first == nil {
			first = t
		} else if !memvars.SameDay(*first, *t) {
			multi = true
			break
		}
	}
	if !multi {
		return
	}
	var at []int
	var times []time.Time
	for i, u := range s.units {
		if s.kept[i] {
			at = append(at, i)
			times = append(times, u.e.unit.Time)
		}
	}
	hs := memvars.DayHeaders(times)
	if hs == nil {
		return
	}
	s.headers = make(map[int]string)
	for x, h := range hs {
		if h != "" {
			s.headers[at[x]] = h
			s.headTok += count(h)
		}
	}
}

// fitHeaders adds the date headers to s and makes room for them: the
// selection is solved again with the budget cut by what it overshoots
// (the headers change with it, so a few times over). If that does not
// converge, the load keeps its first selection without headers: never
// over budget. b.mu is held.
func (b *Buffer) fitHeaders(s *selection, budget int, edges []knapsack.Edge) {
	first := s.sol
	s.dateHeaders(b.opts.Counter)
	room := budget
	for try := 0; try < 6 && s.sol.Cost+s.headTok > budget; try++ {
		room -= s.sol.Cost + s.headTok - budget
		sol, err := knapsack.Solve(knapsack.Problem{Items: s.items, Edges: edges, Budget: room, ExactLimit: b.opts.exactLimit})
		if err != nil {
			break // the pinned units and their headers do not fit
		}
		s.sol = sol
		s.keep(sol)
		s.dateHeaders(b.opts.Counter)
	}
	if s.sol.Cost+s.headTok > budget {
		s.sol = first
		s.keep(first)
		s.headers, s.headTok = nil, 0
	}
}

// analyse records what e's text says of the turns before it.
func analyse(e *entry) {
	e.facts = facts.Turn(text.Excerpt(e.unit.Text), e.unit.Role.String())
	e.plain = memvars.Plain(e.unit.Text)
}

// dependsOn returns the position in s.units, before i, of the unit the
// unit at i cannot be shown without (facts.Depends), the nearest if
// several, or −1. Units recalled from the long-term tier depend on
// nothing. b.mu is held.
func dependsOn(s *selection, i int) int {
	e := s.units[i].e
	if e.origin != "" || !e.facts.Qualifies && !e.facts.Corrects {
		return -1
	}
	// Distances are in the pool: a load over gathered candidates
	// (gather.go) skips the units between them.
	for j := i - 1; j >= max(0, i-facts.Reach); j-- {
		k := s.order[i] - s.order[j]
		if k > facts.Reach {
			break
		}
		if f := s.units[j].e; f.origin == "" && facts.Depends(e.facts, f.facts, k) {
			return j
		}
	}
	return -1
}
