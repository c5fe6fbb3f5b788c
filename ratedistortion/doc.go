// Package ratedistortion is a conversation memory for langchaingo that keeps,
// under a hard token budget, the messages whose loss would hurt most —
// instead of the newest. It is a drop-in for memory.ConversationTokenBuffer.
//
// Every saved message, tool call and tool result is a unit with a cached
// token count, an embedding and flags (names, numbers, dates, "remember …"
// directives, pinning). At each LoadMemoryVariables the buffer treats the
// history as a rate-distortion problem:
//
//	utility of unit u = Scorer(relevance to the query, recency, flags, …)
//	F(S)              = Σ_u utility(u) · cov(u, S)   cov = 1 if kept, else its
//	                                                 best kept near-duplicate
//	maximise F(S)  subject to  tokens(render(S)) ≤ budget
//
// F is monotone submodular, so a second copy of something kept adds little.
// Selection (internal/knapsack) is exact by branch and bound when few groups
// compete, otherwise a lazy cost-benefit greedy. [Buffer.Explain] reports
// what the last load kept and dropped in the shape dmem's has
// ([engram.LoadReport]); [Buffer.ExplainSelection] adds the gap to an LP
// upper bound. Each turn is selected on its own (on real
// dialogue keeping a turn with its reply cost recall); a tool call and its
// results are one group, kept or dropped together; pinned units always stay.
// What is kept is rendered in chronological order, after a one-line summary
// of what was left out when [WithSummaryShare] reserves room for one
// (extractive, or by a model given [WithSummarizer]).
//
// Token counts are exact: each rendered line ends in "\n" and starts with a
// visible prefix, which the tokenizer never merges across, so the rendered
// history costs the sum of its cached line counts.
//
// Each message is one history line, "Human: …" or "AI: …" ("tool: …" for
// tool results, "system: …" for the rest). A line break inside a message
// ("\n", "\r\n", "\r", U+2028 and the other Unicode breaks) is rendered as
// a newline and two spaces, and every other control character but tab as
// its symbol ("␞" for U+001E, U+FFFD for the C1 controls), so text a user
// pasted cannot start a line that reads as another role, whatever splits
// the history into lines (bufio.ScanLines, strings.Split, Python's
// str.splitlines); the counts are of this rendered form. With
// [option.WithReturnMessages] texts come back as saved: there the role is the
// message's type, not a label in its text.
//
// When the kept units were said on more than one day, each day's units come
// under a date header, "[8 May 2023]", counted in the budget: a fact that
// changed shows when each value was said. A turn that qualifies the one
// before it ("but not green apples") or corrects what its speaker just said
// ("no, I said Tuesday") is one item with it, within the budget. With
// [option.WithFacts] an extractor (a model, say) reads the facts each saved unit
// states; a unit whose fact a newer unit gives another value is superseded
// and passes its relevance to that unit, and a query finds a fact's newest
// statement through the slot's own words too ("Omar employer").
//
// Two tiers: [WithLongTerm] puts the buffer over a long-term tier (an
// [engram.LongTerm], such as a *dmem.Memory). Past the cap ([option.WithMaxUnits])
// the pool hands its oldest units down instead of dropping them; each load
// with a query asks the tier for what it would show and the turns next to
// it, scores those with the pool as one collection, and caches them;
// [Buffer.Explain] gives each unit's [engram.Tier].
//
// # Learning from ratings
//
// A rating of an answer ([engram.RewardSink]'s Reward, or
// callbacks.Rewarder.Feedback, or a step's reward that follows a load) is
// about what the load before it showed — right after it, or after the save
// of the rated exchange — and is credited to that alone, in three ways
// (internal/credit, shared by both backends). The answer: the units the
// rated load showed are filed under its question; asked again in the
// same words, an answer at least partly right is shown again and one rated
// wholly wrong (−1) makes room for others. The standing: each unit shown
// gains the rating less the running mean rating, shrunk until a few loads
// agree, and its relevance to every later question moves with it. The
// kinds: a gate of the ledger's own, taught by ratings alone from each
// rated load's most relevant units, corrects every later load's utilities.
// On real dialogue with a user rating every answer (memeval -feedback
// reward), in-stream recall rose by 0.029 to 0.050 at 512 and 1,024 tokens,
// most of it the kinds', and recall of the questions asked again by 0.061 to
// 0.088, the answers'; crediting every shown unit with the raw rating, as
// the memory once did, cost 0.01 to 0.06.
//
// What a user plugs in — the long-term tier, the fact extractor
// ([option.WithFacts]), the summariser, an embedder and a chat history given as
// options — is called through a guard (internal/guard): each call runs
// under the caller's context in a goroutine of its own; a panic becomes an
// error wrapping [engram.ErrPanicked], logged; a call still running at the
// caller's deadline is left to finish while the caller returns at once,
// with the context's error. At most 16 calls into one plug-in of a buffer
// run at once, abandoned ones included: a plug-in stuck for good holds 16
// goroutines, and later calls into it fail at their deadline. A tier's,
// an extractor's or a summariser's failure never fails a save or a load
// (a summariser's gives the extractive summary instead): a hand-down that
// fails or is stuck leaves its units queued (and a save that finds one
// still running leaves its own queued and returns), a failed recall loads
// from the pool alone, a unit the extractor failed on is stored without
// facts. Every failure is counted in [Buffer.Stats] and passed to
// [option.WithErrorHandler]'s handler. A save whose context is done before its
// units are read fails, and stores nothing, as dmem's does.
//
// A message is analysed (its words, flags, facts, vector) by its first
// 64 KiB, and its tokens counted whole, so that a save costs time linear
// in its size; [option.WithMaxMessageBytes] refuses longer messages with
// [engram.ErrTooLarge].
//
// A Buffer is safe for concurrent use. It holds everything in memory;
// [Buffer.Save] writes the pool (units, embeddings, counts, what loads and
// rewards taught it) in a versioned, checksummed format that [Restore]
// resumes after a restart, rebuilding the indexes; [Buffer.SaveFile]
// replaces a file atomically, and it or [RestoreFile] removes what a
// crashed SaveFile left beside it. [option.WithChatHistory]
// mirrors the full transcript to a langchaingo history beside it. For a
// durable, long-term store see package dmem.
package ratedistortion
