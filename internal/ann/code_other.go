//go:build !amd64

package ann

// dots sets out[r] to the dot product of q with the r-th code of codes
// (len(out) codes of dim int8s each, back to back).
func dots(q []int16, codes []int8, dim int, out []int32) { dotsGo(q, codes, dim, out) }
