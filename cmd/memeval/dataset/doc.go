// Package dataset reads and writes conversation-memory benchmark data in
// the LoCoMo JSON format and generates seeded synthetic data in it.
//
// A Sample is a conversation between two speakers, split into dated
// sessions of turns, and the questions (QA) asked after all of it:
//
//	Sample ─┬─ Sessions (replayed by Index: session_1, session_2, … session_10)
//	        │     └─ Turns {Speaker, DiaID "D3:14", Text, Noise}
//	        └─ QA {Question, Answer, Evidence [DiaID…], Category 1..5}
//
// An evaluation replays Turns into a memory, asks each question, and
// measures evidence recall: the share of Sample.Evidence turns whose text
// is in what the memory returned. Adversarial questions have a false
// premise and are left out of recall.
//
// Read accepts the quirks of published files and rejects malformed input
// with errors matching ErrFormat; Write emits what Read returns unchanged.
//
// Generate builds conversations in which facts about the speakers and the
// people in their lives are stated once, anywhere in the conversation,
// and asked at the end; some facts change later, some questions join two
// turns, some resolve relative dates, and a set share of turns is noise,
// including distractors that name the same pets, people and topics
// without holding an answer. GenConfig.Paraphrase sets how many questions
// avoid their evidence's key words; the rest reuse one or two, as many
// LoCoMo questions do. DefaultGenConfig is calibrated so that simple
// baselines score about what they score on LoCoMo; Paraphrase 1 is the
// hard setting. Equal configs give equal bytes. Turns it writes carry
// "noise": true when they state no fact.
//
// Values of this package have no hidden state; functions are safe for
// concurrent use, and a Sample is safe to read from several goroutines.
package dataset
