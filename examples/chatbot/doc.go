// Command chatbot is a terminal chat with long-horizon memory: langchaingo's
// conversation chain over an engram memory, with commands that show what the
// memory kept, why, and let you reward it.
//
//	go run ./examples/chatbot                        # D-MEM, offline stand-in model
//	go run ./examples/chatbot -memory rd -budget 60  # the rate-distortion buffer
//	go run ./examples/chatbot -memory window         # langchaingo's window, to compare
//	go run ./examples/chatbot -script examples/chatbot/testdata/facts.txt
//	echo "What did I tell you?" | go run ./examples/chatbot -path ~/.engram-chat
//
// -memory chooses dmem (D-MEM, durable with -path), rd (ratedistortion, saved
// to and restored from the file -path names) or,
// for comparison, langchaingo's window or token buffer. -llm chooses local, an
// offline stand-in that can only quote what the memory returned (so what it
// answers shows what was recalled), or ollama or openai through langchaingo's
// clients. Lines come from -script, from stdin when it is not a terminal, or
// from an interactive prompt; :why, :good, :bad and :stats look inside the
// memory and reward it through a callbacks.Rewarder.
package main
