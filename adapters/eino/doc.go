// Package eino lets an agent built with CloudWeGo's eino (v0.7) use an
// engram memory — any langchaingo schema.Memory, such as ratedistortion's
// Buffer or dmem's Memory. It is a module of its own, so that engram's
// users do not inherit eino's dependencies.
//
//	eino ReAct agent                         engram memory
//	  MessageModifier ──── Memory.Modifier ──► LoadMemoryVariables(latest user message)
//	  Generate        ──── Memory.Generate ──► SaveContext(user, answer), or
//	                                           Observe(chain error) if it failed
//	  retriever.Retriever ─ Retriever ───────► the same load, as documents
//	                      ─ StoreRetriever ──► vectorstores.VectorStore (dmem's store)
//	  embedding.Embedder (float64) ◄─ Embedder / LangchainEmbedder ─► embeddings.Embedder (float32)
//	  model.BaseChatModel ── Model ──────────► llms.Model, e.g. as a summariser
//
// The memory's history reaches the model as one system message placed
// after the agent's own system messages. eino's MessageModifier cannot
// fail, so a failed load leaves the input unchanged and is counted
// ([Memory.Errors]). The types here are safe for concurrent use if the
// memory is.
package eino
