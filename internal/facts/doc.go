// Package facts is engram's text analysis of facts that change and of
// statements that depend on each other: who says a turn, whether it
// corrects what was just said ("no, I said Tuesday"), and whether it
// qualifies it ("but not green apples") so that the two are kept or dropped
// together. It works on the text alone, offline. What a turn updates is
// decided at load time, against the query (see ratedistortion and dmem):
// the question names the subject and relation better than any pattern
// list could.
//
// Slots is the other half, for a memory given an engram.FactExtractor:
// the table of which units state which fact slot, so that a unit whose
// slot has a newer value is superseded, and Supersede passes its relevance
// to the unit that states the newest (both backends call it the same way).
package facts
