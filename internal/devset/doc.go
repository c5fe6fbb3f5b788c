// Package devset reads the LoCoMo conversations (Maharana et al., 2024) that
// the memories' evaluation tests replay — the development set, or any file
// in LoCoMo's format — as the lines a memory is given and the questions
// asked of them, each with the lines that hold its evidence; grows them to
// the sizes a memory reaches after months; and measures how much of each
// question's evidence a memory's load returns. It is used by tests only:
// the data is not shipped, and a test that finds no file skips.
package devset
