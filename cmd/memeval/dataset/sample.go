package dataset

import (
	"fmt"
	"strconv"
)

// Sample is one conversation between two speakers and the questions asked
// about it after the whole conversation has been replayed.
type Sample struct {
	ID       string
	SpeakerA string
	SpeakerB string
	// Sessions are sorted by Index; that order is the replay order.
	Sessions []Session
	QA       []QA
}

// Session is one sitting of the conversation.
type Session struct {
	// Index is the N of the "session_N" key, starting at 1.
	Index int
	// DateTime is kept verbatim, e.g. "1:56 pm on 8 May, 2023".
	DateTime string
	Turns    []Turn
}

// Turn is one utterance.
type Turn struct {
	Speaker string
	// DiaID identifies the turn within its sample, e.g. "D3:14".
	DiaID string
	Text  string
	// Noise marks a turn that states no fact a question could cite. Only
	// Generate sets it (as the extra JSON field "noise"); it lets a test
	// count how much filler a memory kept. Published data leaves it false.
	Noise bool
}

// QA is a question with its gold answer and the turns that support it.
type QA struct {
	Question string
	// Answer is the gold answer. Numeric JSON answers are kept in their
	// textual form; an absent answer is "".
	Answer string
	// AdversarialAnswer is the misleading answer LoCoMo records for some
	// Adversarial questions in place of Answer.
	AdversarialAnswer string
	// Evidence lists dia_ids, normalised by Read: stray spaces removed and
	// "D1:2; D1:5" split in two.
	Evidence []string
	Category Category
}

// Category is LoCoMo's question type.
type Category int

// The LoCoMo categories, numbered as in the published files.
const (
	MultiHop    Category = 1 + iota // the answer joins two or more turns
	Temporal                        // the answer is a date or time span
	OpenDomain                      // the answer is inferred from a stated fact
	SingleHop                       // the answer is stated in one turn
	Adversarial                     // the premise is false; excluded from recall
)

var categoryNames = [...]string{"", "multi-hop", "temporal", "open-domain", "single-hop", "adversarial"}

// String returns the category's name, e.g. "multi-hop".
func (c Category) String() string {
	if c < MultiHop || c > Adversarial {
		return "category(" + strconv.Itoa(int(c)) + ")"
	}
	return categoryNames[c]
}

// Valid reports whether c is one of the five LoCoMo categories.
func (c Category) Valid() bool { return c >= MultiHop && c <= Adversarial }

// Turns returns every turn in replay order: sessions by Index, turns as
// written. The slice is new; the turns are copies.
func (s *Sample) Turns() []Turn {
	n := 0
	for _, ss := range s.Sessions {
		n += len(ss.Turns)
	}
	out := make([]Turn, 0, n)
	for _, ss := range s.Sessions {
		out = append(out, ss.Turns...)
	}
	return out
}

// Turn returns the turn with the given dia_id. It scans the sample, which
// is cheap at LoCoMo sizes (hundreds of turns).
func (s *Sample) Turn(diaID string) (Turn, bool) {
	for _, ss := range s.Sessions {
		for _, t := range ss.Turns {
			if t.DiaID == diaID {
				return t, true
			}
		}
	}
	return Turn{}, false
}

// Evidence returns the turns q cites, in the order cited. Ids that resolve
// to no turn are skipped, so evidence recall over published data is
// measured on the turns that exist; Validate reports them.
func (s *Sample) Evidence(q QA) []Turn {
	out := make([]Turn, 0, len(q.Evidence))
	for _, id := range q.Evidence {
		if t, ok := s.Turn(id); ok {
			out = append(out, t)
		}
	}
	return out
}

// Validate checks what Read checks (session indexes, unique non-empty
// dia_ids, categories) and also that every evidence id resolves; the
// latter fails with ErrDanglingEvidence.
func (s *Sample) Validate() error {
	if err := s.checkShape(); err != nil {
		return err
	}
	for i, q := range s.QA {
		for _, id := range q.Evidence {
			if _, ok := s.Turn(id); !ok {
				return fmt.Errorf("dataset: sample %q: qa %d: %q: %w", s.ID, i, id, ErrDanglingEvidence)
			}
		}
	}
	return nil
}

// checkShape enforces the invariants Read and Write rely on.
func (s *Sample) checkShape() error {
	seenSession := make(map[int]bool, len(s.Sessions))
	seenTurn := make(map[string]bool)
	for _, ss := range s.Sessions {
		if ss.Index < 1 {
			return fmt.Errorf("dataset: sample %q: session index %d: %w", s.ID, ss.Index, ErrFormat)
		}
		if seenSession[ss.Index] {
			return fmt.Errorf("dataset: sample %q: session %d twice: %w", s.ID, ss.Index, ErrFormat)
		}
		seenSession[ss.Index] = true
		if ss.DateTime == "" {
			return fmt.Errorf("dataset: sample %q: session_%d has no date_time: %w", s.ID, ss.Index, ErrFormat)
		}
		for _, t := range ss.Turns {
			if t.DiaID == "" {
				return fmt.Errorf("dataset: sample %q: session_%d: turn without dia_id: %w", s.ID, ss.Index, ErrFormat)
			}
			if seenTurn[t.DiaID] {
				return fmt.Errorf("dataset: sample %q: %q: %w: %w", s.ID, t.DiaID, ErrFormat, ErrDuplicateTurn)
			}
			seenTurn[t.DiaID] = true
		}
	}
	for i, q := range s.QA {
		if !q.Category.Valid() {
			return fmt.Errorf("dataset: sample %q: qa %d: %v: %w", s.ID, i, q.Category, ErrFormat)
		}
	}
	return nil
}
