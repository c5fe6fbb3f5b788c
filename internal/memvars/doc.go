// Package memvars reads what langchaingo hands a memory — the input and
// output maps of SaveContext, the inputs of LoadMemoryVariables — the same
// way in every engram backend, checks the line prefixes both render, and
// renders a message as a history line ([Line]) so that its own line breaks
// cannot start a line that reads as another role.
package memvars
