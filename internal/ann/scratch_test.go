package ann

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/viterin/vek/vek32"
)

var sink float32
var sinki int32

func dotI8F(q []float32, c []int8) float32 {
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(c); i += 4 {
		s0 += q[i] * float32(c[i])
		s1 += q[i+1] * float32(c[i+1])
		s2 += q[i+2] * float32(c[i+2])
		s3 += q[i+3] * float32(c[i+3])
	}
	for ; i < len(c); i++ {
		s0 += q[i] * float32(c[i])
	}
	return s0 + s1 + s2 + s3
}

func dotI8I(q []int16, c []int8) int32 {
	var s0, s1, s2, s3 int32
	i := 0
	q = q[:len(c)]
	for ; i+4 <= len(c); i += 4 {
		s0 += int32(q[i]) * int32(c[i])
		s1 += int32(q[i+1]) * int32(c[i+1])
		s2 += int32(q[i+2]) * int32(c[i+2])
		s3 += int32(q[i+3]) * int32(c[i+3])
	}
	for ; i < len(c); i++ {
		s0 += int32(q[i]) * int32(c[i])
	}
	return s0 + s1 + s2 + s3
}

const D = 100
const N = 4096

func BenchmarkDotF32(b *testing.B) {
	m := make([]float32, N*D)
	for i := range m { m[i] = rand.Float32() }
	q := m[:D]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for r := 0; r < N; r++ {
			sink += vek32.Dot(m[r*D:(r+1)*D], q)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*N), "ns/vec")
}
func BenchmarkDotI8F(b *testing.B) {
	m := make([]int8, N*D)
	for i := range m { m[i] = int8(rand.IntN(255)-127) }
	q := make([]float32, D)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for r := 0; r < N; r++ {
			sink += dotI8F(q, m[r*D:(r+1)*D])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*N), "ns/vec")
}
func BenchmarkDotI8I(b *testing.B) {
	m := make([]int8, N*D)
	for i := range m { m[i] = int8(rand.IntN(255)-127) }
	q := make([]int16, D)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for r := 0; r < N; r++ {
			sinki += dotI8I(q, m[r*D:(r+1)*D])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*N), "ns/vec")
}
func TestMapMem(t *testing.T) {
	var a, c runtime.MemStats
	runtime.GC(); runtime.ReadMemStats(&a)
	m := map[int32]int32{}
	for i := 0; i < 1000000; i++ { m[int32(i*7)] = int32(i) }
	runtime.GC(); runtime.ReadMemStats(&c)
	t.Logf("map[int32]int32: %.1f B/entry", float64(c.HeapAlloc-a.HeapAlloc)/1e6)
	runtime.KeepAlive(m)
	m2 := map[int32]uint64{}
	runtime.GC(); runtime.ReadMemStats(&a)
	for i := 0; i < 1000000; i++ { m2[int32(i*7)] = uint64(i) }
	runtime.GC(); runtime.ReadMemStats(&c)
	t.Logf("map[int32]uint64: %.1f B/entry", float64(c.HeapAlloc-a.HeapAlloc)/1e6)
	runtime.KeepAlive(m2)
}
