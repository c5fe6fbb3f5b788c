// Package updates generates conversations in which facts change: a fact is
// stated, then changed one to three times in later sessions (or corrected
// on the spot: "no, Tuesday, not Monday"), and the questions asked at the
// end want its current value. It is the workload of the update
// evaluation (eval.Updates).
//
//	Sample ─┬─ dataset.Sample: dated sessions of turns; QA with evidence
//	        │   single-hop  the current value's statement
//	        │   multi-hop   that statement and a link that depends on it
//	        │               ("my office is ten minutes from home")
//	        ├─ Facts: each subject and relation with its values, oldest first
//	        └─ Stale: per question, the superseded statements it must not use
//
// Relations are a speaker's city, employer, job title, partner, pet,
// favourite food, car, phone number and weekly meeting, and a sibling's
// employer. Each is stated, changed and asked in several templates; a
// change never repeats the words of the statement it replaces. Between
// statements runs filler: real dialogue from Config.Filler when given
// (its turns relabelled to this conversation's speakers), otherwise
// generated small talk that names other cities, cars and dishes as
// distractors.
//
// Generation is deterministic: equal configs give equal samples.
package updates
