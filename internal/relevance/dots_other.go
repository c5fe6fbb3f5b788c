//go:build !amd64

package relevance

const dotsInOneCall = false

func dotRowsAVX2(q, rows *float32, dim, stride, n int, out *float64) {
	panic("relevance: no vector code on this processor")
}
