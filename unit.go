package engram

import "time"

// Role says who produced a unit's text.
type Role uint8

// Roles a unit can have. The zero Role is RoleHuman.
const (
	RoleHuman      Role = iota // a user's message
	RoleAI                     // the model's reply
	RoleSystem                 // a system message or a summary
	RoleToolCall               // the model asking for a tool
	RoleToolResult             // what a tool returned
)

var roleNames = [...]string{"human", "ai", "system", "tool_call", "tool_result"}

// String returns the role's lower-case name.
func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "unknown"
}

// Flags mark what a unit's text contains that makes it costly to forget.
type Flags uint16

// Flags set by text analysis or by the caller.
const (
	FlagDirective Flags = 1 << iota // the user asked to remember something
	FlagName                        // mentions a proper name
	FlagNumber                      // holds a number or quantity
	FlagDate                        // holds a date or a time reference
	FlagPinned                      // always kept, whatever the budget
)

// Has reports whether all of want are set in f.
func (f Flags) Has(want Flags) bool { return f&want == want }

// Count returns how many flags are set, pinned excluded.
func (f Flags) Count() int {
	n := 0
	for g := f &^ FlagPinned; g != 0; g &= g - 1 {
		n++
	}
	return n
}

// Unit is one remembered thing: a message, a tool call or a tool result.
//
// A Unit is a value; memories hand out copies, so changing one never
// changes what a memory holds. Embedding may be shared between copies and
// must be treated as read-only.
type Unit struct {
	// ID identifies the unit within its memory.
	ID string
	// Seq is the unit's position in the order units were saved, from 0.
	Seq int64
	// Group links the units of one exchange: a human turn and its reply,
	// a tool call and its results share a Group. A load keeps or drops a
	// tool call and its results together, and selects a turn's messages
	// each on its own.
	Group int64
	// Role says who produced Text.
	Role Role
	// Text is the content, exactly as saved.
	Text string
	// Time is when the unit was saved.
	Time time.Time
	// Tokens is the exact token cost of the unit as its memory renders it.
	Tokens int
	// Embedding is the unit's vector, unit-normalised.
	Embedding []float32
	// Flags mark names, numbers, dates, directives and pinning.
	Flags Flags
	// Facts are what the memory's [FactExtractor] read in Text when the
	// unit was saved; nil without one. Shared between copies like
	// Embedding: read-only.
	Facts []Fact
}
