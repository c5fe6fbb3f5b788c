// Package tmaze is a long-horizon cue task for memory gates, after the
// T-maze of reinforcement learning: a cue appears early, then many
// distractor steps, then the agent must act on the cue.
//
//	noise × c ─► cue (left or right) ─► distractors × L ─► act: +1 right, −1 wrong
//	                                     (some look like the cue)
//
// The memory holds K units and decides what to keep by a scorer alone: when
// full, a newcomer takes the place of the lowest-scoring unit only if it
// scores higher (an incumbent keeps its place on a tie); FIFO keeps the
// newest. At the end the agent reads its K units: if the cue is among them
// it turns the right way, otherwise it guesses. The agent reads text, so it
// knows the cue when it sees it; the memory sees only [engram.Features],
// and distractors share every single feature of the cue — its role, its
// flag, its relevance — so no one feature singles it out.
package tmaze
