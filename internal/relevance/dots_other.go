//go:build !amd64

package relevance

const dotsInOneCall = false

func dotRowsAVX2(q, rows *float32, dim, stride, n int, out *float64) {
	panic("relevance: no vector code on this processor")
}

const codeDotInLanes = false

func codeDotSSE(c *int8, v *float32, n int) float64 {
	panic("relevance: no vector code on this processor")
}
