package lexicon

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/engram-go/engram/internal/text"
)

func sim(a, b string) float64 { return Similarity(text.Stem(a), text.Stem(b)) }

func TestSimilar(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		min  float64
	}{
		{"dad", "father", 0.5},
		{"car", "automobile", 0.5},
		{"sofa", "couch", 0.7},
		{"kid", "child", 0.7},
		{"kids", "children", 0.7},
		{"unwind", "relax", 0.5},
		{"big", "large", 0.7},
		{"volunteered", "volunteer", 0.9},
		{"bake", "baking", 0.9},
		{"bake", "baker", 0.1},
		{"baking", "baker", 0.1},
		{"job", "occupation", 0.5},
		{"job", "profession", 0.05},
		{"occupation", "profession", 0.05},
		{"mom", "mother", 0.3},
		{"dog", "puppy", 0.15},
		{"college", "university", 0.05},
		{"paris", "city", 0.01},   // instance hypernym
		{"nurse", "hygienist", 0}, // only via depth 4: hygienist → … → health professional
	} {
		t.Run(tc.a+"/"+tc.b, func(t *testing.T) {
			s := sim(tc.a, tc.b)
			if s <= tc.min || s > 1 {
				t.Errorf("Similarity(%q, %q) = %.3f, want in (%.2f, 1]", tc.a, tc.b, s, tc.min)
			}
			if r := sim(tc.b, tc.a); r != s {
				t.Errorf("not symmetric: %.3f vs %.3f", s, r)
			}
		})
	}
}

func TestDissimilar(t *testing.T) {
	for _, tc := range [][2]string{
		{"dog", "tax"},
		{"father", "weather"},
		{"time", "hour"},
		{"novel", "tax"},
	} {
		if s := sim(tc[0], tc[1]); s > 0.02 {
			t.Errorf("Similarity(%q, %q) = %.3f, want ≈ 0", tc[0], tc[1], s)
		}
	}
	// Co-hyponyms meet only at distant, low-weight ancestors.
	if cat, puppy := sim("dog", "cat"), sim("dog", "puppy"); cat > puppy/4 {
		t.Errorf("dog/cat = %.3f, want well below dog/puppy = %.3f", cat, puppy)
	}
}

func TestIrregular(t *testing.T) {
	for _, tc := range [][2]string{
		{"children", "child"},
		{"went", "go"},
		{"mice", "mouse"},
		{"geese", "goose"},
		{"bought", "buy"},
		{"taught", "teach"},
	} {
		form, lemma := Concepts(text.Stem(tc[0])), Concepts(text.Stem(tc[1]))
		if len(lemma) == 0 {
			t.Errorf("%s: no concepts", tc[1])
			continue
		}
		// The form shares the lemma's first sense.
		if !slices.ContainsFunc(form, func(c Concept) bool { return c.ID == lemma[0].ID }) {
			t.Errorf("%s → %s: %v lacks %v", tc[0], tc[1], form, lemma[0])
		}
	}
}

func TestUnknown(t *testing.T) {
	for _, s := range []string{"", "xyzzyq", "Dog", "dog cat", "3.5"} {
		if c := Concepts(s); c != nil {
			t.Errorf("Concepts(%q) = %v, want nil", s, c)
		}
	}
	if s := Similarity("xyzzyq", "dog"); s != 0 {
		t.Errorf("Similarity(unknown, dog) = %v, want 0", s)
	}
}

// TestVague checks that frequent, many-sensed words carry little weight.
func TestVague(t *testing.T) {
	norm := func(stem string) float64 {
		var n float64
		for _, c := range Concepts(stem) {
			n += float64(c.Weight) * float64(c.Weight)
		}
		return math.Sqrt(n)
	}
	for _, w := range []string{"make", "go", "time", "day", "getting"} {
		if n := norm(text.Stem(w)); n > 0.4 {
			t.Errorf("%s: confidence %.2f, want ≤ 0.4", w, n)
		}
	}
	for _, w := range []string{"sofa", "dad", "hygienist"} {
		if n := norm(text.Stem(w)); n < 0.9 {
			t.Errorf("%s: confidence %.2f, want ≥ 0.9", w, n)
		}
	}
}

func TestTable(t *testing.T) {
	tb := load()
	if n := len(tb.index); n < 50000 {
		t.Fatalf("table has %d stems, want ≥ 50000", n)
	}
	empty := 0
	for stem := range tb.index {
		cs := Concepts(stem)
		if len(cs) == 0 {
			empty++
			continue
		}
		if len(cs) > MaxConcepts {
			t.Fatalf("%s: %d concepts", stem, len(cs))
		}
		var n float64
		for i, c := range cs {
			if c.Weight <= 0 || c.Weight > 1 || (i > 0 && c.Weight > cs[i-1].Weight) {
				t.Fatalf("%s: bad weights %v", stem, cs)
			}
			n += float64(c.Weight) * float64(c.Weight)
		}
		if n > 1+1e-4 {
			t.Fatalf("%s: norm² %.4f > 1", stem, n)
		}
		if s := Similarity(stem, stem); math.Abs(s-1) > 1e-5 {
			t.Fatalf("Similarity(%s, %[1]s) = %v", stem, s)
		}
		if k := Kinds(stem); k == 0 || k >= 1<<len(lexnames) {
			t.Fatalf("Kinds(%s) = %#x", stem, uint64(k))
		}
	}
	if empty > 0 {
		t.Errorf("%d stems with no concepts", empty)
	}
}

func TestConcurrent(t *testing.T) {
	words := []string{"dog", "puppy", "father", "dad", "bak", "children", "went", "sofa", "couch"}
	// What a single goroutine sees, computed first, is what all must see.
	type answer struct {
		n    int
		kind Kind
		sim  float64
	}
	want := make(map[[2]string]answer)
	for _, a := range words {
		for _, b := range words {
			want[[2]string{a, b}] = answer{len(Concepts(text.Stem(a))), Kinds(text.Stem(a)), Similarity(a, b)}
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				a, b := words[(g+i)%len(words)], words[i%len(words)]
				got := answer{len(Concepts(text.Stem(a))), Kinds(text.Stem(a)), Similarity(a, b)}
				if got != want[[2]string{a, b}] {
					t.Errorf("%s/%s: concurrent %+v, serial %+v", a, b, got, want[[2]string{a, b}])
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestConceptsAllocs(t *testing.T) {
	Concepts("dog")
	if n := testing.AllocsPerRun(100, func() { Concepts("dog") }); n != 0 {
		t.Errorf("Concepts allocates %v times", n)
	}
}

// TestGenerate regenerates the table from WordNet twice: the bytes must be
// identical, and equal to the embedded table unless text.Stem or
// text.IsStop changed since it was generated.
func TestGenerate(t *testing.T) {
	const dir = "/usr/share/wordnet"
	if _, err := os.Stat(filepath.Join(dir, "data.noun")); err != nil {
		t.Skip("WordNet not installed:", err)
	}
	if testing.Short() {
		t.Skip("slow: runs the generator")
	}
	tmp := t.TempDir()
	var outs [2][]byte
	for i := range outs {
		out := filepath.Join(tmp, "table"+string(rune('a'+i)))
		cmd := exec.Command("go", "run", "./internal/gen", "-wordnet", dir, "-o", out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("generator: %v\n%s", err, msg)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		outs[i] = b
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Fatal("two runs of the generator differ")
	}
	if !bytes.Equal(outs[0], tableGz) {
		t.Error("table.bin.gz is stale (text.Stem or the generator changed): run go generate ./internal/lexicon")
	}
}

func BenchmarkConcepts(b *testing.B) {
	stems := []string{"dog", "father", "bak", "children", "xyzzyq", "automobil"}
	for _, s := range stems {
		Concepts(s)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		Concepts(stems[i%len(stems)])
		i++
	}
}

func BenchmarkSimilarity(b *testing.B) {
	Similarity("dog", "puppi")
	b.ReportAllocs()
	for b.Loop() {
		Similarity("dog", "puppi")
	}
}

func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode(tableGz); err != nil {
			b.Fatal(err)
		}
	}
}
