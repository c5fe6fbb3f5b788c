package tokens

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestCountKnownValues(t *testing.T) {
	// Reference counts from OpenAI's tiktoken for the same strings.
	tests := []struct {
		enc  Encoding
		text string
		want int
	}{
		{CL100kBase, "", 0},
		{CL100kBase, "hello world", 2},
		{CL100kBase, "tiktoken is great!", 6},
		{CL100kBase, "<|endoftext|>", 7},
		{O200kBase, "hello world", 2},
	}
	for _, tt := range tests {
		t.Run(string(tt.enc)+"/"+tt.text, func(t *testing.T) {
			c, err := Get(tt.enc)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Count(tt.text); got != tt.want {
				t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
			}
		})
	}
}

// The two encodings must really be different tables.
func TestEncodingsDiffer(t *testing.T) {
	// Token ids of "hello world" in OpenAI's tiktoken.
	want := map[Encoding][]int{CL100kBase: {15339, 1917}, O200kBase: {24912, 2375}}
	for enc, ids := range want {
		c, err := Get(enc)
		if err != nil {
			t.Fatal(err)
		}
		if got := []int{c.ranks["hello"], c.ranks[" world"]}; got[0] != ids[0] || got[1] != ids[1] {
			t.Errorf("%s: ids %v, want %v", enc, got, ids)
		}
	}
}

func TestGetUnknown(t *testing.T) {
	if _, err := Get("p50k_base"); !errors.Is(err, ErrUnknownEncoding) {
		t.Fatalf("err = %v, want ErrUnknownEncoding", err)
	}
}

func TestGetShared(t *testing.T) {
	a, _ := Get(CL100kBase)
	b, _ := Get(CL100kBase)
	if a != b || a != Default() {
		t.Fatal("Get built a second encoder for the same encoding")
	}
}

// Lines that each end in "\n" and start with a non-space character are
// split apart by the pre-tokenizer, so their counts add up exactly. The
// memories rely on this to count a rendered buffer without re-encoding it.
func TestLineCountsAdd(t *testing.T) {
	c := Default()
	lines := []string{
		"Human: hi there.\n", "AI: hello!\n", "Human: it's   spaced \n",
		"AI: 12345 numbers 3.14\n", "Human: ends with newline\n\n", "AI: ünïcödé 日本語\n",
		"Human: <|endoftext|> tricky '\n", "AI: :)\n", "Human: tabs\t\n",
	}
	sum := 0
	for _, l := range lines {
		sum += c.Count(l)
	}
	if got := c.Count(strings.Join(lines, "")); got != sum {
		t.Fatalf("joined count %d, sum of lines %d", got, sum)
	}
}

func TestConcurrentCount(t *testing.T) {
	c := Default()
	want := c.Count("the quick brown fox jumps over the lazy dog")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if got := c.Count("the quick brown fox jumps over the lazy dog"); got != want {
					t.Errorf("got %d, want %d", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func BenchmarkCount(b *testing.B) {
	c := Default()
	text := strings.Repeat("The cat sat on the mat and thought about dinner. ", 4)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		c.Count(text)
	}
}

// Long runs without white space are counted exactly, and quickly: a
// 256 KiB run took tiktoken-go a minute.
func TestLongRuns(t *testing.T) {
	for _, enc := range []Encoding{CL100kBase, O200kBase} {
		c, _ := Get(enc)
		want := oracle(t, enc)
		for _, s := range []string{
			strings.Repeat("a", 3000),
			strings.Repeat("aGVsbG8gd29ybGQ=", 300), // base64
			"see " + strings.Repeat("x9_", 700) + " done",
			strings.Repeat("\uFFFD", 800),
			strings.Repeat("1\u0663", 350), // 1,400 bytes of 1 and ٣, once undercounted
			strings.Repeat("!?", 900),
			strings.Repeat(" ", 2000) + "x",
			strings.Repeat("日本語", 400),
		} {
			if got, exact := c.Count(s), want(s); got != exact {
				t.Errorf("%s %.20q…: Count %d, tiktoken %d", enc, s, got, exact)
			}
		}
	}
	c := Default()
	// Not a benchmark: the bound only catches the quadratic cost that
	// took a minute for one of these (about 0.5 s now on 2 busy cores);
	// a machine's noise stays far below it.
	limit := 10 * time.Second
	if raceEnabled {
		limit *= 3
	}
	for _, s := range []string{
		strings.Repeat("a", 256<<10),
		strings.Repeat("aGVsbG8gd29ybGQ=", 16<<10),
		strings.Repeat("1\u0663x", 64<<10),
		strings.Repeat("!", 256<<10),
	} {
		start := time.Now()
		n := c.Count(s)
		if d := time.Since(start); d > limit {
			t.Errorf("%.10q… (%d bytes): %v", s, len(s), d)
		}
		if n < len(s)/64 {
			t.Errorf("%.10q… (%d bytes) counted as %d tokens", s, len(s), n)
		}
	}
}

func BenchmarkCountRun(b *testing.B) {
	c := Default()
	for _, size := range []int{1 << 10, 16 << 10, 256 << 10} {
		for name, unit := range map[string]string{"letters": "a", "base64": "aGVsbG8gd29ybGQ=", "digits": "1\u0663"} {
			text := strings.Repeat(unit, size/len(unit))
			b.Run(fmt.Sprintf("%s/%d", name, size), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					c.Count(text)
				}
			})
		}
	}
}

func BenchmarkCountLine(b *testing.B) {
	c := Default()
	line := "Human: My sister Priya moved to Lisbon in March 2021, and she loves it.\n"
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		c.Count(line)
	}
}
