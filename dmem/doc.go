// Package dmem is D-MEM, a dopamine-gated, value-routed long-term memory for
// agents that run for weeks. It keeps what surprised the agent and lets the
// routine fade, so the store stays small and what comes back is what mattered.
//
//	step ──► features φ(s), novelty ν ──► gate g = σ(α|δ| − β) ──► core (heap by priority, chromem index)
//	           │                            │                    ├► short-term buffer (recent window)
//	reward ──► δ = r + γV̄(s′) − V(s) ───────┘                    └► nowhere (history only)
//
// Every step (a conversation turn, a tool call, result or error) becomes a
// unit with an embedding, a time and, when one arrives, a reward. A small
// linear value model V(s) learns by TD(0) against Polyak-averaged target
// weights V̄; its error δ is the surprise. Where no reward comes, surprise is
// novelty: the new terms, names, numbers and dates a step brings, times how
// far it is from what the memory already holds. The gate's α and β follow
// streaming (P²) quantiles of |δ|; δ's sign is kept in the unit.
//
// Core units carry a priority that starts from their surprise, grows when
// they merge a near-duplicate or are retrieved just before a positive δ, and
// halves every half-life steps; at capacity the lowest goes (a heap). A
// learned gate ([option.WithGate], package gate) may scale these priorities by what
// it learns from the rewards that follow loads.
// A load fuses λ·relevance + (1 − λ)·salience over its candidates — the
// best units by relevance (every unit scored up to 16,384 in process;
// beyond, or with a store, the nearest by vector, the best by the rarer
// words and their neighbours), the short-term buffer, and
// the rest of any tool call's group — λ moving toward value as rewards
// accumulate. Relevance is engram's one measure (internal/relevance: BM25,
// GloVe cosine, the neighbouring turns, the speaker), kept over the
// resident units in an in-memory index rebuilt on open, beside their
// vectors, packed: the part relevance compares (the default embedder's
// GloVe part) in float32, which the in-process chromem-go collection
// shares, the rest as int8 codes, which admission and merging read (a
// vector handed out is rebuilt from them, at a cosine above 0.999 with the
// original). A tool call is kept where its result goes. The load packs
// turns, each on its own, into the exact token budget with
// internal/knapsack, the selector every engram memory uses. It renders one
// "Human: …" / "AI: …" line per unit, as langchaingo does, except that a
// line break inside a unit's text ("\n", "\r\n", "\r", U+2028 and the other
// Unicode breaks) is rendered as a newline and two spaces, and every other
// control character but tab as its symbol ("␞" for U+001E, U+FFFD for the
// C1 controls): no text can start a line that reads as another role,
// whatever splits the history into lines. Token counts are of that
// rendered line. With [option.WithFacts], units carry the facts they state, and
// a candidate whose fact a newer resident unit changes hands its score to
// that unit, which joins the candidates though the query may not match it
// ("Which city does Omar live in?" against "we relocated to Edinburgh");
// a step that changes a fact is stored at least as the statement it
// supersedes is.
//
// A durable memory keeps its record in a store (package dmem/store), scoped
// to its namespace ([WithNamespace]: user, agent, session): units with their
// embeddings, priorities and δ statistics, an eviction log, term counts and
// the learned state. Commits are grouped, and an acknowledged write is
// committed. [WithPath] opens the embedded store, package dmem/boltstore:
// a bbolt file with chromem-go as its index, rebuilt on open (open one
// yourself to share it between namespaces); dmem/pgstore keeps the record in
// PostgreSQL, which many processes share ([WithStore]). Each Memory holds its namespace's value
// model, gates and LSH tables itself; what it changes in a shared namespace
// it sends as changes (priority updates, term increments, evictions) that
// the store applies atomically, and its sequence numbers are reserved from
// the store in blocks. A clean Close gives back the unused end of the block
// ([store.Releaser]), so a reopened bbolt memory numbers on without a gap;
// in a shared namespace, where another process may have reserved since,
// numbers stay unique and may skip. Retrieval asks the store for the nearest core units, so a
// memory also finds what other writers of its namespace stored. Writing a
// store of one's own takes package dmem/store, and dmem/storetest checks
// it. A Memory is safe for concurrent use; New starts no goroutine.
// A Memory is also an [engram.LongTerm]: under ratedistortion.WithLongTerm
// it takes the units a working context lets go ([Memory.Demote]) and
// answers its loads ([Memory.Recall]). A load said over several days shows
// each day's units under a date header, and keeps a correction or
// qualifying turn with the turn it depends on, as ratedistortion does.
// Explain reports what the last load weighed, kept and dropped, in the
// shape ratedistortion's Explain has ([engram.LoadReport]); ExplainUnit
// says why a unit was stored, routed, kept or evicted.
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
// With a store, the gate is kept with every commit, and the answers and
// standing at Close.
//
// What a user plugs in — the fact extractor ([option.WithFacts]), an embedder and
// a chat history given as options — is called through a guard
// (internal/guard), as in ratedistortion: each call runs under the
// caller's context in a goroutine of its own; a panic becomes an error
// wrapping [engram.ErrPanicked], logged; a call still running at the
// caller's deadline is left to finish while the caller returns at once,
// with the context's error. At most 16 calls into one plug-in of a memory
// run at once, abandoned ones included, so a plug-in stuck for good holds
// 16 goroutines. A unit the extractor failed on is stored without facts; a
// save whose context is done before its units are read fails and stores
// nothing. Every failure is counted in [Memory.Stats] and passed to
// [option.WithErrorHandler]'s handler. A message is analysed by its first 64 KiB
// and its tokens counted whole, so that a save costs time linear in its
// size; [option.WithMaxMessageBytes] refuses longer messages with
// [engram.ErrTooLarge].
package dmem
