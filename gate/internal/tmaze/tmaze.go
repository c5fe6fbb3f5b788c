package tmaze

import (
	"math"
	"math/rand/v2"

	"github.com/engram-go/engram"
)

// Kind says what a step is.
type Kind uint8

// Kinds of step. The three lookalikes each share some features of the cue.
const (
	Noise Kind = iota // chatter: low relevance, human or AI
	Cue               // a tool reports the way: tool result, directive, middling relevance
	Said              // the user muses about the way: human, directive, high relevance
	Echo              // the model asks about the way: AI, high relevance
	Log               // a tool logs a reminder: tool result, directive, low relevance
)

// Config sizes an episode.
type Config struct {
	// L is the number of distractor steps between the cue and the act.
	L int
	// K is how many units the memory holds.
	K int
	// CueWindow bounds the cue's step: it comes after a uniform 0 to
	// CueWindow−1 noise steps.
	CueWindow int
	// Lookalikes is the share of distractors that resemble the cue.
	Lookalikes float64
	// HalfLife is the recency half-life, in steps, as in ratedistortion.
	HalfLife float64
}

// DefaultConfig is the task the gate is measured on: L = 1,000, K = 8, a tenth of the
// distractors cue-like.
func DefaultConfig() Config {
	return Config{L: 1000, K: 8, CueWindow: 16, Lookalikes: 0.1, HalfLife: 8}
}

// Step is one step of an episode: its kind and the features the memory
// sees when it arrives.
type Step struct {
	Kind     Kind
	Seq      int64
	Features engram.Features
}

// step draws the static features of a step of kind k.
func step(r *rand.Rand, k Kind, seq int64) Step {
	f := engram.Features{Tokens: 10 + r.IntN(30)}
	u := r.Float64
	flag := func(p float64, fl engram.Flags) {
		if u() < p {
			f.Flags |= fl
		}
	}
	switch k {
	case Noise:
		f.Role = engram.Role(r.IntN(2)) // human or AI
		f.Relevance = 0.35 * u()
		flag(0.3, engram.FlagName)
		flag(0.2, engram.FlagNumber)
		flag(0.1, engram.FlagDate)
		flag(0.02, engram.FlagDirective)
	case Cue:
		f.Role = engram.RoleToolResult
		f.Relevance = 0.45 + 0.25*u()
		f.Flags |= engram.FlagDirective
		flag(0.5, engram.FlagName)
	case Said:
		f.Role = engram.RoleHuman
		f.Relevance = 0.6 + 0.4*u()
		f.Flags |= engram.FlagDirective
		flag(0.5, engram.FlagName)
	case Echo:
		f.Role = engram.RoleAI
		f.Relevance = 0.7 + 0.3*u()
		flag(0.5, engram.FlagName)
	case Log:
		f.Role = engram.RoleToolResult
		f.Relevance = 0.3 * u()
		f.Flags |= engram.FlagDirective
		flag(0.5, engram.FlagNumber)
	}
	f.Surprise = 2*u() - 1
	return Step{Kind: k, Seq: seq, Features: f}
}

// Generate returns the steps of one episode, the cue's position and the
// way it points (true for right).
func Generate(r *rand.Rand, c Config) (steps []Step, cue int, right bool) {
	pre := r.IntN(max(1, c.CueWindow))
	steps = make([]Step, 0, pre+1+c.L)
	for range pre {
		steps = append(steps, step(r, Noise, int64(len(steps))))
	}
	cue = len(steps)
	steps = append(steps, step(r, Cue, int64(cue)))
	for range c.L {
		k := Noise
		if r.Float64() < c.Lookalikes {
			k = Said + Kind(r.IntN(3))
		}
		steps = append(steps, step(r, k, int64(len(steps))))
	}
	return steps, cue, r.IntN(2) == 1
}

// Memory is a K-slot memory that keeps units by a scorer, or the newest
// when the scorer is nil (FIFO).
type Memory struct {
	c      Config
	scorer engram.Scorer
	slots  []Step
	now    int64 // the newest step's Seq
}

// NewMemory returns an empty memory for c; a nil scorer makes it FIFO.
func NewMemory(c Config, s engram.Scorer) *Memory {
	return &Memory{c: c, scorer: s, slots: make([]Step, 0, c.K+1)}
}

// Features returns what the memory knows of s now: its static features
// with its age and recency.
func (m *Memory) Features(s Step) engram.Features {
	f := s.Features
	f.AgeSteps = m.now - s.Seq
	f.Recency = math.Exp2(-float64(f.AgeSteps) / m.c.HalfLife)
	return f
}

// Add offers s to the memory; when full, the lowest-scoring unit goes (s
// itself unless it scores strictly higher), or the oldest under FIFO.
func (m *Memory) Add(s Step) {
	m.now = s.Seq
	m.slots = append(m.slots, s)
	if len(m.slots) <= m.c.K {
		return
	}
	victim := 0 // FIFO: the oldest
	if m.scorer != nil {
		victim = len(m.slots) - 1
		low := m.scorer.Score(m.Features(s))
		for i, u := range m.slots[:len(m.slots)-1] {
			if v := m.scorer.Score(m.Features(u)); v <= low {
				victim, low = i, v
			}
		}
	}
	m.slots = append(m.slots[:victim], m.slots[victim+1:]...)
}

// Units returns what the memory holds, oldest first. The slice is the
// memory's own.
func (m *Memory) Units() []Step { return m.slots }

// Learner learns from the end of an episode, once for every unit the
// agent read when it acted: the features the unit had when the memory took
// it in (age 0, recency 1: the decision being judged), whether the act used
// it (referred back to it), and the reward the act earned.
type Learner func(f engram.Features, used bool, reward float64)

// Run plays one episode with scorer s (nil: FIFO), reports to learn (if not
// nil) every unit the agent read, and returns whether the agent turned the
// right way.
func Run(r *rand.Rand, c Config, s engram.Scorer, learn Learner) bool {
	steps, _, right := Generate(r, c)
	m := NewMemory(c, s)
	for _, st := range steps {
		m.Add(st)
	}
	found := false
	for _, u := range m.Units() {
		found = found || u.Kind == Cue
	}
	guess := r.IntN(2) == 1
	ok := found || guess == right // the cue gives the way; without it the agent guesses
	if learn != nil {
		reward := -1.0
		if ok {
			reward = 1
		}
		for _, u := range m.Units() {
			f := u.Features
			f.Recency = 1
			learn(f, u.Kind == Cue, reward)
		}
	}
	return ok
}
