package option_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/schema"
)

// both builds each memory from opts and returns them by name, or the
// error each New gave.
func both(t *testing.T, opts ...option.Option) (map[string]schema.Memory, map[string]error) {
	t.Helper()
	mems, errs := map[string]schema.Memory{}, map[string]error{}
	if b, err := ratedistortion.New(opts...); err != nil {
		errs["ratedistortion"] = err
	} else {
		mems["ratedistortion"] = b
	}
	if m, err := dmem.New(context.Background(), opts...); err != nil {
		errs["dmem"] = err
	} else {
		t.Cleanup(func() { m.Close() })
		mems["dmem"] = m
	}
	return mems, errs
}

// TestOneListBuildsEither: one list of shared options builds both
// memories, and each honours every option in it.
func TestOneListBuildsEither(t *testing.T) {
	opts := []option.Option{
		option.WithTokenBudget(12),
		option.WithMemoryKey("past"),
		option.WithInputKey("question"),
		option.WithHumanPrefix("User"),
	}
	mems, errs := both(t, opts...)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	ctx := context.Background()
	for name, m := range mems {
		for _, s := range []string{"My locker code is 4821.", "The blue folder is on the shelf.", "We meet on Mondays in room 12."} {
			in := map[string]any{"question": s, "context": "unused"}
			if err := m.SaveContext(ctx, in, map[string]any{"output": "Noted."}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		vars, err := m.LoadMemoryVariables(ctx, map[string]any{"question": "What is my locker code?", "context": "unused"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, _ := vars["past"].(string)
		if !strings.Contains(got, "User: My locker code is 4821.") {
			t.Errorf("%s: load %q, want the locker line under the key past, labelled User", name, got)
		}
		if strings.Contains(got, "Mondays") {
			t.Errorf("%s: load %q is over its 12-token budget", name, got)
		}
	}
}

// TestLaterOptionWins: options apply in order, in both memories.
func TestLaterOptionWins(t *testing.T) {
	mems, errs := both(t, option.WithMemoryKey("a"), option.WithMemoryKey("b"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for name, m := range mems {
		if keys := m.MemoryVariables(context.Background()); len(keys) != 1 || keys[0] != "b" {
			t.Errorf("%s: memory variables %v, want [b]", name, keys)
		}
	}
}

// TestRefused: a shared option out of range, the zero Option and another
// memory's own option are refused by New, with an error that wraps
// ErrInvalidOption and names what is wrong, not a panic.
func TestRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  option.Option
		want map[string]string // memory: what its error must name
	}{
		{"a budget of 0", option.WithTokenBudget(0), map[string]string{"ratedistortion": "option.WithTokenBudget(0)", "dmem": "option.WithTokenBudget(0)"}},
		{"a nil extractor", option.WithFacts(nil), map[string]string{"ratedistortion": "option.WithFacts(nil)", "dmem": "option.WithFacts(nil)"}},
		{"a nil embedder", option.WithEmbedder((*embed.Embedder)(nil)), map[string]string{"ratedistortion": "embedder is a nil *embed.Embedder", "dmem": "embedder is a nil *embed.Embedder"}},
		{"a blank AI prefix", option.WithAIPrefix(" AI"), map[string]string{"ratedistortion": `option.WithAIPrefix(" AI")`, "dmem": `option.WithAIPrefix(" AI")`}},
		{"an unknown encoding", option.WithEncoding("p50k"), map[string]string{"ratedistortion": `option.WithEncoding("p50k")`, "dmem": `option.WithEncoding("p50k")`}},
		{"the zero Option", option.Option{}, map[string]string{"ratedistortion": "option 2 of 2 is empty", "dmem": "option 2 of 2 is empty"}},
		{"dmem's own", dmem.WithShortTerm(4), map[string]string{"ratedistortion": "dmem.WithShortTerm, is an option of dmem"}},
		{"ratedistortion's own", ratedistortion.WithSummaryShare(0.1), map[string]string{"dmem": "ratedistortion.WithSummaryShare, is an option of ratedistortion"}},
		{"dmem's old name", dmem.WithCapacity(5), map[string]string{"ratedistortion": "dmem.WithCapacity, is an option of dmem"}},
		{"ratedistortion's old name", ratedistortion.WithRecencyHalfLife(8), map[string]string{"dmem": "ratedistortion.WithRecencyHalfLife, is an option of ratedistortion"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := both(t, option.WithTokenBudget(100), tc.opt)
			for name, want := range tc.want {
				err := errs[name]
				if !errors.Is(err, engram.ErrInvalidOption) || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), name+": ") {
					t.Errorf("%s: %v, want ErrInvalidOption from %s naming %q", name, err, name, want)
				}
			}
			if len(errs) != len(tc.want) {
				t.Errorf("refused by %d memories, want %d: %v", len(errs), len(tc.want), errs)
			}
		})
	}
}
