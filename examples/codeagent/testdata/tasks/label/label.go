// Package label writes shelf labels.
package label

import "fmt"

// Label describes how many of item are in stock.
func Label(item string, count int) string {
	return fmt.Sprintf("%d: %d in stock", item, count)
}
