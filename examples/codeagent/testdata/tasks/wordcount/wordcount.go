// Package wordcount counts words.
package wordcount

import "strings"

// Count returns how often each word occurs in text, ignoring case.
func Count(text string) map[string]int {
	var counts map[string]int
	for _, w := range strings.Fields(text) {
		counts[strings.ToLower(w)]++
	}
	return counts
}
