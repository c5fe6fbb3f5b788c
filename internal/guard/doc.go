// Package guard calls what a user plugs into an engram memory — a
// long-term tier, a fact extractor, a summariser, an embedder, a chat
// history — so that none of them can crash or hang the memory.
//
// A call through a [Guard] runs in a goroutine of its own under the
// caller's context, and the caller waits for it or for the context,
// whichever comes first:
//
//	caller ──Do──▶ take a slot ──▶ go fn(ctx) ──▶ result ──▶ caller
//	                  │                 │
//	                  └── ctx.Done ─────┴──▶ caller gets ctx's error at once
//
// A panic becomes an error wrapping [engram.ErrPanicked], logged with its
// stack. A plug-in that ignores its context is left running when the
// caller's deadline passes, and the caller returns at once with the
// context's error: a call never outlives its context by more than the
// time it takes to be scheduled. What is left behind is bounded: each
// Guard lets at most [Limit] calls run at once, abandoned ones included,
// and a call that finds every slot taken waits for one only until its
// context is done. A plug-in stuck for good thus holds [Limit]
// goroutines, no more, and every later call into it fails at its
// caller's deadline (or, with no deadline, waits as a direct call
// would).
//
// Every failure — an error, a panic, a call abandoned at the deadline —
// is counted ([Guard.Failed]) and passed to the hook the Guard was given,
// once. A Guard is safe for concurrent use.
package guard
