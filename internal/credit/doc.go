// Package credit turns a user's rating of an answer into what a memory
// shows next time. Both backends keep one [Ledger] and call it the same way:
// Loaded after each load, Saved for each human message saved, Rate and
// Learn when a rating comes, and, while scoring, Answers and Multiplier on
// each unit's relevance and Correction on its utility.
//
// A rating that follows a load is about what that load showed, and nothing
// else: not the last step saved, not the units of other loads. Three things
// are learned from it, each measured on real dialogue in the feedback
// replay (memeval -feedback) and each worth its place there:
//
//   - The answer: the units a rated load showed, filed under its question.
//     Asked again in the same words (cosine of the question vectors at
//     least about 0.998, and the same numbers and names, which word
//     vectors do not see), a load that was at least partly right shows
//     them again, all of them, since which ones answered is not known; one
//     rated wholly wrong (−1) makes room for others. Broader matching of
//     questions cost recall on questions not asked before: the units an
//     answer showed are mostly not the ones that answered.
//   - The standing of each unit: the ratings of the loads that showed it,
//     each less the running mean rating, shrunk towards nothing until a few
//     loads agree. A unit shown in answers rated better than usual gains
//     relevance for every question; one shown in worse answers loses it.
//     Centring matters: most answers are rated up, and an uncentred sum
//     made every shown unit crowd later loads.
//   - The kinds of unit that answer: a learned gate (package gate, a few
//     hundred bytes) taught by ratings alone, from each rated load's most
//     relevant units, whose correction of every later load's utilities
//     gives most of the gain on questions not asked before. It learns what
//     this user's questions need: on the development set, mostly that
//     recent turns answer.
//
// A rating r is read on [−1, 1] (clamped): 1 for an answer that had all it
// needed, −1 for one that had none of it.
package credit
