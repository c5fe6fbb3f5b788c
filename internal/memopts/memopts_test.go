package memopts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/memvars"
	"github.com/engram-go/engram/tokens"
)

func valid() Shared {
	s := Defaults("mem")
	s.HalfLife, s.Redundancy = 8, 0.9
	return s
}

func TestValidate(t *testing.T) {
	if s := valid(); s.Validate() != nil {
		t.Fatalf("the defaults do not validate: %v", s.Validate())
	}
	for _, tt := range []struct {
		name string
		set  func(*Shared)
		says string
	}{
		{"budget", func(s *Shared) { s.Budget = 0 }, "option.WithTokenBudget(0)"},
		{"memory key", func(s *Shared) { s.MemoryKey = "" }, "empty memory key"},
		{"nil extractor", func(s *Shared) { s.FactsSet = true }, "nil fact extractor"},
		{"blank prefix", func(s *Shared) { s.HumanPrefix = " " }, `option.WithHumanPrefix(" ")`},
		{"max units", func(s *Shared) { s.MaxUnits = -1 }, "option.WithMaxUnits(-1)"},
		{"max bytes", func(s *Shared) { s.MaxBytes = -1 }, "option.WithMaxMessageBytes(-1)"},
		{"redundancy", func(s *Shared) { s.Redundancy = 1.5 }, "option.WithRedundancyThreshold(1.5)"},
		{"half-life NaN", func(s *Shared) { s.HalfLife = math.NaN() }, "option.WithHalfLife(NaN)"},
		{"half-life zero", func(s *Shared) { s.HalfLife = 0 }, "option.WithHalfLife(0)"},
		{"blank AI prefix", func(s *Shared) { s.AIPrefix = "\tAI" }, `option.WithAIPrefix("\tAI")`},
		{"nil embedder", func(s *Shared) { s.Embedder = (*embed.Embedder)(nil) }, "nil *embed.Embedder"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := valid()
			tt.set(&s)
			err := s.Validate()
			if !errors.Is(err, engram.ErrInvalidOption) || !strings.HasPrefix(err.Error(), "mem: ") || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("got %v, want an ErrInvalidOption saying %q, named mem", err, tt.says)
			}
		})
	}
}

// failing is an embedder that always fails.
type failing struct{}

func (failing) EmbedDocuments(context.Context, []string) ([][]float32, error) {
	return nil, errors.New("down")
}
func (failing) EmbedQuery(context.Context, string) ([]float32, error) { return nil, errors.New("down") }

func TestResolve(t *testing.T) {
	s := valid()
	if err := s.Resolve(embed.WithGloVeShare(0.5), embed.WithDimensions(32)); err != nil {
		t.Fatal(err)
	}
	own, ok := s.Embedder.(*embed.Embedder)
	if !ok || own.Dimensions() != embed.GloVeDimensions+32 {
		t.Errorf("default embedder %T, want engram's own as asked", s.Embedder)
	}
	c, err := tokens.Get(tokens.CL100kBase)
	if err != nil {
		t.Fatal(err)
	}
	if s.Counter == nil || s.Counter("hello world") != c.Count("hello world") || s.Logger == nil || s.Now == nil || s.Guards == nil {
		t.Error("Resolve left the counter, logger, clock or guards unset")
	}

	// A foreign embedder is called through the guards, which name the
	// memory in what they pass on.
	var got error
	s = valid()
	s.Embedder, s.OnError = failing{}, func(err error) { got = err }
	if err := s.Resolve(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Embedder.EmbedQuery(context.Background(), "x"); err == nil {
		t.Fatal("the failing embedder's error was lost")
	}
	if got == nil || !strings.HasPrefix(got.Error(), "mem: ") || s.Guards.Failures().Embedder != 1 {
		t.Errorf("handler told %v, failures %+v; want one embedder failure named mem", got, s.Guards.Failures())
	}

	s = valid()
	s.Encoding = tokens.Encoding("nope")
	if err := s.Resolve(); !errors.Is(err, engram.ErrInvalidOption) {
		t.Errorf("unknown encoding: %v, want ErrInvalidOption", err)
	}
}

func TestExchangeAndQuery(t *testing.T) {
	s := valid()
	ctx := context.Background()
	in, out, err := s.Exchange(ctx, map[string]any{"input": "hi"}, map[string]any{"output": "hello"})
	if err != nil || in != "hi" || out != "hello" {
		t.Fatalf("Exchange: %q, %q, %v", in, out, err)
	}
	_, _, err = s.Exchange(ctx, map[string]any{"question": "a", "context": "b"}, map[string]any{"output": "x"})
	if !errors.Is(err, engram.ErrInvalidInput) || !strings.HasPrefix(err.Error(), "mem: save inputs: ") {
		t.Errorf("two input keys and none set: %v, want an ErrInvalidInput of mem's save inputs", err)
	}
	if q, err := s.Query(ctx, map[string]any{"input": "where?"}); err != nil || q != "where?" {
		t.Errorf("Query: %q, %v", q, err)
	}
	if _, err := s.Query(ctx, map[string]any{"question": "a", "context": "b"}); !errors.Is(err, engram.ErrInvalidInput) || !strings.HasPrefix(err.Error(), "mem: load: ") {
		t.Errorf("two query keys and none set: %v, want an ErrInvalidInput of mem's load", err)
	}
	var none context.Context
	if _, err := s.Query(none, map[string]any{"input": "x"}); !errors.Is(err, engram.ErrInvalidInput) {
		t.Errorf("Query with a nil context: %v", err)
	}
	if _, _, err := s.Exchange(none, map[string]any{"input": "x"}, map[string]any{"output": "y"}); !errors.Is(err, engram.ErrInvalidInput) {
		t.Errorf("Exchange with a nil context: %v", err)
	}
}

func TestEmbedSlots(t *testing.T) {
	s := valid()
	if err := s.Resolve(); err != nil {
		t.Fatal(err)
	}
	vs := s.EmbedSlots(context.Background(), []string{"Omar home city", "Omar employer"})
	if len(vs) != 2 || len(vs[0]) != embed.GloVeDimensions {
		t.Errorf("%d vectors for two slots", len(vs))
	}
	s = valid()
	s.Embedder, s.Logger = failing{}, slog.New(slog.DiscardHandler)
	if err := s.Resolve(); err != nil {
		t.Fatal(err)
	}
	if vs := s.EmbedSlots(context.Background(), []string{"x"}); vs != nil {
		t.Errorf("a failing embedder gave %d vectors, want none", len(vs))
	}
}

// TestLinesFingerprint: the fingerprint both memories store with their
// units is the one earlier releases wrote, so that a store or a saved
// buffer is not recounted for nothing, and it changes with the prefixes
// and the counter.
func TestLinesFingerprint(t *testing.T) {
	s := valid()
	s.Counter = func(x string) int { return len(x) }
	sample := memvars.Line("Human", "tokens 12345 ünïcödé\nAI: "+strings.Repeat("1\u0663", 350))
	want := fmt.Sprintf("Human|AI|%d|escaped", len(sample))
	if got := s.LinesFingerprint(false); got != want {
		t.Errorf("fingerprint %q, want %q", got, want)
	}
	want = fmt.Sprintf("Human|AI|%d|%d|escaped", len(sample), len(memvars.Line("AI", "ok")))
	if got := s.LinesFingerprint(true); got != want {
		t.Errorf("fingerprint with the reply %q, want %q", got, want)
	}
	other := s
	other.HumanPrefix = "User"
	if other.LinesFingerprint(false) == s.LinesFingerprint(false) {
		t.Error("another prefix, the same fingerprint")
	}
}

func TestLayoutOf(t *testing.T) {
	half, err := embed.New(embed.WithGloVeShare(0.5), embed.WithDimensions(64))
	if err != nil {
		t.Fatal(err)
	}
	if l := LayoutOf(half); l.Prefix != embed.GloVeDimensions || l.Dims != half.Dimensions() || l.Part == nil {
		t.Errorf("GloVe beside hashed dimensions: layout %+v, want the GloVe prefix and its part", l)
	}
	whole, err := embed.New(embed.WithGloVeShare(1))
	if err != nil {
		t.Fatal(err)
	}
	if l := LayoutOf(whole); l.Prefix != 0 || l.Part != nil {
		t.Errorf("GloVe alone: layout %+v, want every component compared", l)
	}
	if l := LayoutOf(failing{}); l.Prefix != 0 || l.Part != nil {
		t.Errorf("a foreign embedder: layout %+v, want every component compared", l)
	}
	s := valid()
	s.Embedder = half
	if err := s.Resolve(); err != nil || s.Layout.Prefix != embed.GloVeDimensions {
		t.Errorf("Resolve set layout %+v, %v", s.Layout, err)
	}
}

// A counter of the caller's that gives a count below zero counts nothing:
// a negative line would let a load keep more than its budget; one above
// maxCount counts maxCount, so that a load's sums cannot overflow; counts
// between pass as given.
func TestCountsAreBounded(t *testing.T) {
	s := valid()
	s.Counter = func(text string) int {
		if text == "huge" {
			return math.MaxInt / 3
		}
		return len(text) - 5
	}
	if err := s.Resolve(); err != nil {
		t.Fatal(err)
	}
	if n := s.Counter("ok"); n != 0 {
		t.Errorf("a count of -3: %d, want 0", n)
	}
	if n := s.Counter("a longer line"); n != 8 {
		t.Errorf("a count of 8: %d", n)
	}
	if n := s.Counter("huge"); n != maxCount {
		t.Errorf("a count of MaxInt/3: %d, want %d", n, maxCount)
	}
}
