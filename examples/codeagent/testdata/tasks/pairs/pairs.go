// Package pairs compares neighbouring values.
package pairs

// Gaps returns the difference between each value of xs and the next.
func Gaps(xs []int) []int {
	var gaps []int
	for i := 0; i < len(xs); i++ {
		gaps = append(gaps, xs[i+1]-xs[i])
	}
	return gaps
}
