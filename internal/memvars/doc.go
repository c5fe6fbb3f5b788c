// Package memvars reads what langchaingo hands a memory — the input and
// output maps of SaveContext, the inputs of LoadMemoryVariables — the same
// way in every engram backend, and checks the line prefixes both render.
package memvars
