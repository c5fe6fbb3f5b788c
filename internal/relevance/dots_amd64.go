package relevance

import (
	"runtime"

	"golang.org/x/sys/cpu"
)

// dotsInOneCall is whether dotRows runs its own vector code: exactly where
// viterin/vek, which [Dot] calls, runs its AVX2 and FMA code, so that the
// two give the same bits.
var dotsInOneCall = cpu.X86.HasAVX2 && cpu.X86.HasFMA && runtime.GOOS != "darwin"

//go:noescape
func dotRowsAVX2(q, rows *float32, dim, stride, n int, out *float64)

// codeDotInLanes is whether codeDot runs its own vector code.
var codeDotInLanes = cpu.X86.HasSSE41

//go:noescape
func codeDotSSE(c *int8, v *float32, n int) float64
