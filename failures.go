package engram

// Failures counts the calls a memory made into what a user plugged into
// it that failed: returned an error, panicked, or were still running at
// their caller's deadline. A memory survives each (a tier's, an
// extractor's or a summariser's failure never fails a save or a load) but
// counts it here and passes it to its error handler (WithErrorHandler in
// both memories).
type Failures struct {
	// LongTerm counts failed Demote, Recall and Reward calls into a
	// [LongTerm] tier.
	LongTerm int64
	// Facts counts failed [FactExtractor] calls.
	Facts int64
	// Summarizer counts failed calls into a summariser model.
	Summarizer int64
	// Embedder counts failed calls into an embedder the user gave.
	Embedder int64
	// ChatHistory counts failed calls into a chat history.
	ChatHistory int64
}

// Total returns the failures of every kind.
func (f Failures) Total() int64 {
	return f.LongTerm + f.Facts + f.Summarizer + f.Embedder + f.ChatHistory
}
