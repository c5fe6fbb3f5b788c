package ratedistortion

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/memopts"
	"github.com/engram-go/engram/option"
)

// TestDeprecatedOptions: each old name sets what its new name sets.
func TestDeprecatedOptions(t *testing.T) {
	tests := []struct {
		name     string
		old, new Option
		field    func(o options) float64
	}{
		{"WithRecencyHalfLife", WithRecencyHalfLife(3), option.WithHalfLife(3), func(o options) float64 { return o.HalfLife }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := built(t, tt.old), built(t, tt.new)
			if tt.field(a) != tt.field(b) || tt.field(a) == tt.field(defaults()) {
				t.Errorf("old name set %v, new name %v (default %v)", tt.field(a), tt.field(b), tt.field(defaults()))
			}
		})
	}
}

// built returns the options opts build, failing t if they are refused.
func built(t *testing.T, opts ...Option) options {
	t.Helper()
	o := defaults()
	if err := memopts.Build(&o, &o.Shared, opts, o.check); err != nil {
		t.Fatal(err)
	}
	return o
}

// nanEmbedder gives a NaN component to texts that mention Omar.
type nanEmbedder struct{ e textEmbedder }

// textEmbedder is what nanEmbedder wraps.
type textEmbedder = interface {
	EmbedDocuments(context.Context, []string) ([][]float32, error)
	EmbedQuery(context.Context, string) ([]float32, error)
}

func (n nanEmbedder) EmbedDocuments(ctx context.Context, ts []string) ([][]float32, error) {
	vs, err := n.e.EmbedDocuments(ctx, ts)
	for i, t := range ts {
		if err == nil && strings.Contains(t, "Omar") {
			vs[i] = slices.Clone(vs[i])
			vs[i][0] = float32(math.NaN())
		}
	}
	return vs, err
}

func (n nanEmbedder) EmbedQuery(ctx context.Context, t string) ([]float32, error) {
	vs, err := n.EmbedDocuments(ctx, []string{t})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// TestBadInputIsAnError: an empty option, a nil reader or writer, a nil context and an
// embedder's non-finite vector are refused with an error, not a panic, and
// a refused save stores nothing, so that what Save writes Restore reads.
func TestBadInputIsAnError(t *testing.T) {
	ctx := context.Background()
	if _, err := New(option.WithTokenBudget(100), Option{}); !errors.Is(err, engram.ErrInvalidOption) {
		t.Errorf("New with an empty option: %v", err)
	}
	if _, err := Restore(ctx, nil); !errors.Is(err, engram.ErrInvalidInput) {
		t.Errorf("Restore from a nil reader: %v", err)
	}
	var none context.Context
	b := newBuffer(t)
	if err := b.Save(nil); !errors.Is(err, engram.ErrInvalidInput) {
		t.Errorf("Save to a nil writer: %v", err)
	}
	if err := b.Save((*bytes.Buffer)(nil)); !errors.Is(err, engram.ErrInvalidInput) {
		t.Errorf("Save to a nil *bytes.Buffer: %v", err)
	}
	if err := b.SaveFile(t.TempDir()); !errors.Is(err, engram.ErrInvalidInput) || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("SaveFile to a directory: %v", err)
	}
	if err := b.Reward(none, 1); !errors.Is(err, engram.ErrInvalidInput) {
		t.Errorf("Reward with a nil context: %v", err)
	}
	own, err := embed.New()
	if err != nil {
		t.Fatal(err)
	}
	b = newBuffer(t, option.WithEmbedder(nanEmbedder{own}))
	save(t, b, "We met at the cafe.", "Nice.")
	if err := b.SaveContext(ctx, map[string]any{"input": "Omar works at Acme."}, map[string]any{"output": "OK."}); !errors.Is(err, engram.ErrInvalidInput) {
		t.Fatalf("a NaN embedding: %v, want ErrInvalidInput", err)
	}
	if b.Len() != 2 {
		t.Errorf("%d units after a refused save, want the 2 before it", b.Len())
	}
	if _, err := b.LoadMemoryVariables(ctx, map[string]any{"input": "Where does Omar work?"}); !errors.Is(err, engram.ErrInvalidInput) {
		t.Errorf("a NaN query embedding: %v, want ErrInvalidInput", err)
	}
	var buf bytes.Buffer
	if err := b.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := Restore(ctx, &buf, option.WithEmbedder(nanEmbedder{own})); err != nil {
		t.Errorf("restoring what Save wrote: %v", err)
	}
}
