// Package facts is engram's text analysis of facts that change and of
// statements that depend on each other: who says a turn, whether it
// corrects what was just said ("no, I said Tuesday"), and whether it
// qualifies it ("but not green apples") so that the two are kept or dropped
// together. It works on the text alone, offline. What a turn updates is
// decided at load time, against the query (see ratedistortion and dmem):
// the question names the subject and relation better than any pattern
// list could.
package facts
