// Package langchaingo connects engram to the parts of langchaingo (and of
// chromem-go, which the dmem store is built on) that a memory does not
// implement itself. Both memories already are langchaingo schema.Memory
// values and take any embeddings.Embedder; this package covers the rest:
//
//	EmbeddingFunc, EmbedDocuments  an embeddings.Embedder as chromem-go's
//	                               embedding function, unit-normalised, and
//	                               batched when documents are added
//	Summarizer                     an llms.Model condensing text in a budget
//	FactExtractor                  an llms.Model reading the facts a unit
//	                               states, as an engram.FactExtractor for
//	                               option.WithFacts
//	TokenCounter, CountTokens      a model name as an engram.TokenCounter:
//	                               exact and offline, or as llms.CountTokens
//	Retriever, Documents           any memory as a schema.Retriever, for the
//	                               retrieval chains; a vectorstores.VectorStore
//	                               (dmem's) is one already through
//	                               vectorstores.ToRetriever
//
// Subpackage memorytest checks that a memory drops into langchaingo's
// conversation chain, LLM chain and agent executor.
//
// Everything here is safe for concurrent use if the wrapped value is.
package langchaingo
