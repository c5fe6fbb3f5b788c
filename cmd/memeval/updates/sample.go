package updates

import "github.com/engram-go/engram/cmd/memeval/dataset"

// Sample is one generated conversation with its facts and, for each
// question, the statements it must not be answered from.
type Sample struct {
	// Sample holds the sessions and the questions. QA[i].Evidence names
	// the turns the answer rests on: the current value's statement, and
	// for a multi-hop question the link that joins it to the question.
	dataset.Sample
	// Facts are the facts stated, in the order they were made up.
	Facts []Fact
	// Stale lists, for each QA (same index), the dia_ids of the
	// superseded statements of the fact its answer depends on.
	Stale [][]string
}

// Fact is one subject's relation with the values it took, in order.
type Fact struct {
	// Subject names whom the fact is about: a speaker, or a speaker's
	// sibling ("Maya's sister Leah").
	Subject  string
	Relation Relation
	// Values are the statements of the fact, oldest first; the last one
	// holds the current value.
	Values []Statement
}

// Current returns the statement of the fact's current value.
func (f Fact) Current() Statement { return f.Values[len(f.Values)-1] }

// Statement is one turn that gives a fact a value.
type Statement struct {
	Value string
	DiaID string
	// Correction marks a value that corrects the one just said, in the
	// same session, rather than a change over time.
	Correction bool
}

// Relation names what a fact is about.
type Relation string

// The relations a fact may be about.
const (
	City       Relation = "city"
	Employer   Relation = "employer"
	JobTitle   Relation = "job title"
	Partner    Relation = "partner"
	Pet        Relation = "pet"
	Food       Relation = "favourite food"
	Car        Relation = "car"
	Phone      Relation = "phone number"
	Meeting    Relation = "meeting"
	KinCompany Relation = "sibling's employer"
)
