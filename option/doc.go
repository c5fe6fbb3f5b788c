// Package option holds the options every engram memory takes: the token
// budget, the keys and prefixes of langchaingo's memories, the token
// counter, the embedder, the learned gate, the caps and the plug-ins.
// dmem.New and ratedistortion.New take them beside their own options
// (dmem.WithPath, ratedistortion.WithLongTerm, …), in one list of one type,
// [Option], so that the same list builds either memory:
//
//	opts := []option.Option{option.WithTokenBudget(1024), option.WithFacts(ex)}
//	buf, err := ratedistortion.New(opts...)
//	mem, err := dmem.New(ctx, append(opts, dmem.WithPath(dir))...)
//
// Each option is written, documented and checked once. Where the two
// memories use one differently (a half-life halves recency in
// ratedistortion and priorities in dmem), its documentation says how,
// with each memory's default.
//
// An option holds what it was given, so memories built from one list
// share it: one chat history ([WithChatHistory]) mirrors both transcripts
// and a Clear of either clears it; one gate ([WithGate]) learns from both;
// one extractor ([WithFacts]) and one error handler serve both. Give each
// memory its own where they should stay apart. A list appended to from
// several goroutines needs slices.Clip first, as any slice does whose
// spare capacity they would share.
package option
