package tokens

import (
	"errors"
	"strings"
	"sync"
	"testing"
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
		got := c.enc.EncodeOrdinary("hello world")
		if len(got) != 2 || got[0] != ids[0] || got[1] != ids[1] {
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

// A long run without white space is counted in pieces: quickly, and never
// below the exact count, which the encoder itself gives for runs short
// enough to wait for.
func TestLongRuns(t *testing.T) {
	c := Default()
	for _, s := range []string{
		strings.Repeat("a", 3000),
		strings.Repeat("aGVsbG8gd29ybGQ=", 300), // base64
		"see " + strings.Repeat("x9_", 700) + " done",
		strings.Repeat("\uFFFD", 800),
	} {
		exact := len(c.enc.EncodeOrdinary(s))
		got := c.Count(s)
		cuts := len(s) / maxRun
		if got < exact || got > exact+3*cuts+3 {
			t.Errorf("%.20q…: Count %d, exact %d (%d cuts)", s, got, exact, cuts)
		}
	}
	if n := c.Count(strings.Repeat("a", 1<<20)); n < (1<<20)/16 {
		t.Errorf("1 MiB run counted as %d tokens", n)
	}
	if got, want := c.Count("Human: hello there\n"), len(c.enc.EncodeOrdinary("Human: hello there\n")); got != want {
		t.Errorf("ordinary text: %d, exact %d", got, want)
	}
}
