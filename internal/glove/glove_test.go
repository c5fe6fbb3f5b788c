package glove

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// cos is the cosine of two vectors of any length.
func cos(a, b []float32) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return d / math.Sqrt(na*nb)
}

func vec(t *testing.T, w string) []float32 {
	t.Helper()
	v, ok := Vector(w)
	if !ok {
		t.Fatalf("Vector(%q) missing", w)
	}
	return v[:]
}

func TestVector(t *testing.T) {
	// Each word is nearer the first of its pair than the second.
	for _, tc := range [][3]string{
		{"king", "queen", "banana"},
		{"dog", "puppy", "tax"},
		{"sofa", "couch", "election"},
		{"dad", "father", "weather"},
		{"unwind", "relax", "invoice"},
		{"baking", "bread", "missile"},
	} {
		near, far := cos(vec(t, tc[0]), vec(t, tc[1])), cos(vec(t, tc[0]), vec(t, tc[2]))
		if near < 0.45 || near <= far+0.3 {
			t.Errorf("cos(%s, %s) = %.3f, cos(%[1]s, %[4]s) = %.3f: want ≥ 0.45 and 0.3 apart", tc[0], tc[1], near, tc[2], far)
		}
	}
	for _, w := range []string{"", "King", "xyzzyq", "dog cat", "'s"} {
		if v, ok := Vector(w); ok || v != [Dim]float32{} {
			t.Errorf("Vector(%q) = %v, %v; want zeros, false", w, v, ok)
		}
	}
}

func TestVectorAllocs(t *testing.T) {
	Vector("dog")
	if n := testing.AllocsPerRun(100, func() { Vector("dog") }); n != 0 {
		t.Errorf("Vector allocates %v times", n)
	}
}

func TestRank(t *testing.T) {
	prev := -1
	for _, w := range []string{"the", "of", "people", "dog", "beagle", "sourdough"} {
		r, ok := Rank(w)
		if !ok || r <= prev {
			t.Errorf("Rank(%q) = %d, %v; want > %d", w, r, ok, prev)
		}
		prev = r
	}
	if r, _ := Rank("the"); r != 0 {
		t.Errorf(`Rank("the") = %d`, r)
	}
	if _, ok := Rank("xyzzyq"); ok {
		t.Error("unknown word has a rank")
	}
}

func TestWeight(t *testing.T) {
	tb := load()
	prev := 0.0
	for i, r := range tb.rank {
		w := weightOfRank(int(r))
		if w <= prev || w >= 1 {
			t.Fatalf("row %d, rank %d: weight %v after %v; want increasing in (0,1)", i, r, w, prev)
		}
		prev = w
	}
	if w := Weight("xyzzyq"); w != prev {
		t.Errorf("unknown word weighs %v, want the rarest word's %v", w, prev)
	}
	for _, tc := range []struct {
		word     string
		min, max float64
	}{
		{"the", 0, 0.01},
		{"know", 0.2, 0.5},
		{"dog", 0.7, 0.9},
		{"beagle", 0.95, 1},
	} {
		if w := Weight(tc.word); w < tc.min || w > tc.max {
			t.Errorf("Weight(%q) = %.3f, want in [%.2f, %.2f]", tc.word, w, tc.min, tc.max)
		}
	}
}

func TestTable(t *testing.T) {
	tb := load()
	n := len(tb.rank)
	if n != 75000 || len(tb.start) != n || len(tb.size) != n || len(tb.weight) != n {
		t.Fatalf("%d ranks, %d starts, %d sizes, %d weights", n, len(tb.start), len(tb.size), len(tb.weight))
	}
	for i := 1; i < n; i++ {
		if tb.rank[i] <= tb.rank[i-1] {
			t.Fatalf("row %d: rank %d after %d", i, tb.rank[i], tb.rank[i-1])
		}
	}
	for i := range int32(n) {
		w := tb.word(i)
		if w == "" || w != strings.ToLower(w) || strings.ContainsAny(w, " .,;:!?\"()") {
			t.Errorf("row %d: word %q", i, w)
		}
		// The index finds every word at its own row, from a string and
		// from bytes.
		if j, ok := lookup(tb, w); !ok || j != i {
			t.Errorf("row %d: %q found at %d, %v", i, w, j, ok)
		}
		if j, ok := lookup(tb, []byte(w)); !ok || j != i {
			t.Errorf("row %d: %q as bytes found at %d, %v", i, w, j, ok)
		}
	}
}

// The index tells apart words that differ in one byte, and holds none but
// the table's.
func TestIndexMisses(t *testing.T) {
	tb := load()
	misses := 0
	for i := range int32(len(tb.rank)) {
		w := []byte(tb.word(i))
		w[len(w)-1] ^= 0x20 // lower case to upper, digit to control byte
		if j, ok := lookup(tb, w); ok {
			if tb.word(j) != string(w) {
				t.Fatalf("%q found as %q", w, tb.word(j))
			}
		} else {
			misses++
		}
	}
	if misses < len(tb.rank)*9/10 {
		t.Errorf("%d of %d altered words missed", misses, len(tb.rank))
	}
}

func TestDecodeCorrupt(t *testing.T) {
	for _, raw := range []string{
		"", "GLV1", tableBin[:10], tableBin[:len(tableBin)/2], tableBin[:len(tableBin)-1],
		tableBin + "\x00", "GLV2" + tableBin[4:], "not a table at all",
	} {
		if _, err := decode(raw); err == nil {
			t.Errorf("decode of %d bytes succeeded", len(raw))
		}
	}
}

// TestGenerate regenerates the table from the wink JSON file named by
// ENGRAM_GLOVE_JSON twice: the bytes must be identical and equal to the
// embedded table, and the quantized vectors faithful to GloVe's.
func TestGenerate(t *testing.T) {
	path := os.Getenv("ENGRAM_GLOVE_JSON")
	if path == "" {
		t.Skip("ENGRAM_GLOVE_JSON not set")
	}
	if _, err := os.Stat(path); err != nil {
		t.Skip("GloVe JSON missing:", err)
	}
	if testing.Short() {
		t.Skip("slow: runs the generator")
	}
	tmp := t.TempDir()
	var outs [2][]byte
	for i := range outs {
		out := filepath.Join(tmp, fmt.Sprint("table", i))
		cmd := exec.Command("go", "run", "./internal/gen", "-json", path, "-o", out, "-v")
		msg, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("generator: %v\n%s", err, msg)
		}
		if i == 0 {
			checkFidelity(t, msg)
		}
		if outs[i], err = os.ReadFile(out); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Fatal("two runs of the generator differ")
	}
	if string(outs[0]) != tableBin {
		t.Error("table.bin is stale (the generator changed): run go generate ./internal/glove")
	}
}

// TestGenerateSmall runs the generator on a small made-up vocabulary, so
// that without GloVe's file the tests still check that the table it writes
// is the table decode reads: the words kept, in order, with their ranks,
// and vectors within quantization of the originals.
func TestGenerateSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: builds the generator")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	src := []string{"the", "Upper", "of", "-lrb-", "don't", "well-known", "café", "a.b"}
	for i := range 40 {
		src = append(src, fmt.Sprintf("w%02d", i))
	}
	vecs := make(map[string][]float64, len(src))
	for i, w := range src {
		v := make([]float64, Dim, Dim+2)
		for j := range v {
			v[j] = rng.NormFloat64() * 0.4
		}
		vecs[w] = append(v, 1, float64(i)) // wink's length and index follow
	}
	js, err := json.Marshal(map[string]any{"dimensions": Dim, "words": src, "vectors": vecs})
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	in, out := filepath.Join(tmp, "wink.json"), filepath.Join(tmp, "table.bin")
	if err := os.WriteFile(in, js, 0o644); err != nil {
		t.Fatal(err)
	}
	const keep = 40
	if msg, err := exec.Command("go", "run", "./internal/gen", "-json", in, "-o", out, "-words", fmt.Sprint(keep)).CombinedOutput(); err != nil {
		t.Fatalf("generator: %v\n%s", err, msg)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := decode(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	var want []string // what the generator keeps: lower-case words, no brackets or dots
	for _, w := range src {
		if w != "Upper" && w != "-lrb-" && w != "a.b" && len(want) < keep {
			want = append(want, w)
		}
	}
	if len(tb.rank) != keep {
		t.Fatalf("%d words, want %d", len(tb.rank), keep)
	}
	for i, w := range want {
		row := int32(i)
		if got := tb.word(row); got != w {
			t.Fatalf("row %d: %q, want %q", i, got, w)
		}
		if j, ok := lookup(tb, w); !ok || j != row {
			t.Errorf("%q found at %d, %v", w, j, ok)
		}
		if r := int(tb.rank[i]); src[r] != w {
			t.Errorf("%q: rank %d is %q", w, r, src[r])
		}
		var v [Dim]float32
		tb.vector(row, &v)
		orig := make([]float32, Dim)
		for j, x := range vecs[w][:Dim] {
			orig[j] = float32(x)
		}
		if c := cos(v[:], orig); c < 0.9999 {
			t.Errorf("%q: cosine %.6f with the original", w, c)
		}
	}
}

// checkFidelity reads the generator's statistics: the cosine between each
// original vector and its dequantized form (0.999979 on average, 0.999902
// at worst when the table was made).
func checkFidelity(t *testing.T, stats []byte) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(stats))
	for sc.Scan() {
		var mean, minimum float64
		if _, err := fmt.Sscanf(sc.Text(), "mean cosine %f, min cosine %f", &mean, &minimum); err == nil {
			t.Logf("quantization: mean cosine %.6f, min %.6f", mean, minimum)
			if mean < 0.9999 || minimum < 0.999 {
				t.Errorf("quantization too coarse: mean cosine %.6f, min %.6f", mean, minimum)
			}
			return
		}
	}
	t.Errorf("no fidelity figures in the generator's output:\n%s", stats)
}

func TestConcurrent(t *testing.T) {
	lines := []string{"We adopted a beagle", "Priya moved to Lisbon", "I bake sourdough to unwind"}
	want := make([][]float32, len(lines))
	for i, l := range lines {
		want[i] = Embed(nil, l)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				k := (g + i) % len(lines)
				if got := Embed(nil, lines[k]); !bitsEqual(got, want[k]) {
					t.Errorf("%q: concurrent result differs", lines[k])
					return
				}
			}
		})
	}
	wg.Wait()
}

func bitsEqual(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// chatLine is a typical 20-word line of dialogue.
const chatLine = "Oh nice, I finally tried that sourdough recipe you sent me and the loaf came out surprisingly crusty and good!"

func BenchmarkEmbed(b *testing.B) {
	dst := make([]float32, 0, Dim)
	Embed(dst, chatLine)
	b.ReportAllocs()
	for b.Loop() {
		dst = Embed(dst[:0], chatLine)
	}
}

func BenchmarkVector(b *testing.B) {
	Vector("dog")
	b.ReportAllocs()
	for b.Loop() {
		Vector("dog")
	}
}

// BenchmarkDecode is the cost of the first use of the package.
func BenchmarkDecode(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode(tableBin); err != nil {
			b.Fatal(err)
		}
	}
}
