package ann

// dots sets out[r] to the dot product of q with the r-th code of codes
// (len(out) codes of dim int8s each, back to back).
func dots(q []int16, codes []int8, dim int, out []int32) {
	if len(out) == 0 {
		return
	}
	if !hasAVX2 {
		dotsGo(q, codes, dim, out)
		return
	}
	_ = q[dim-1]
	_ = codes[len(out)*dim-1]
	dotsAVX2(&q[0], &codes[0], dim, len(out), &out[0])
}

//go:noescape
func dotsAVX2(q *int16, codes *int8, dim, n int, out *int32)

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

var hasAVX2 = detectAVX2()

// detectAVX2 asks the processor and the operating system (which must save
// the YMM registers) whether AVX2 may be used.
func detectAVX2() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}
