// Package increasing checks orderings.
package increasing

// Increasing reports whether every value of xs is at least the one before.
func Increasing(xs []int) bool {
	for i := 0; i < len(xs); i++ {
		if xs[i+1] < xs[i] {
			return false
		}
	}
	return true
}
