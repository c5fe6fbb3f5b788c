package engram_test

import (
	"context"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/schema"
)

// memory is what both engram memories offer under the same names, with
// the same signatures: a caller moves from one to the other without
// rewriting these calls.
type memory interface {
	schema.Memory
	Reward(context.Context, float64) error
	Observe(context.Context, engram.Step) error
	Explain() (engram.LoadReport, bool)
	Units() []engram.Unit
}

var (
	_ memory = (*ratedistortion.Buffer)(nil)
	_ memory = (*dmem.Memory)(nil)
)

// TestUnitsOldestFirst: both memories' Units list what they hold, oldest
// first.
func TestUnitsOldestFirst(t *testing.T) {
	ctx := context.Background()
	rd, err := ratedistortion.New()
	if err != nil {
		t.Fatal(err)
	}
	dm, err := dmem.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer dm.Close()
	for name, m := range map[string]memory{"ratedistortion": rd, "dmem": dm} {
		for _, s := range []string{"The blue folder is on the shelf.", "My locker code is 4821.", "We meet on Mondays."} {
			if err := m.SaveContext(ctx, map[string]any{"input": s}, map[string]any{"output": "Noted."}); err != nil {
				t.Fatal(err)
			}
		}
		us := m.Units()
		if len(us) < 3 {
			t.Errorf("%s: %d units after three saves", name, len(us))
		}
		for i := 1; i < len(us); i++ {
			if us[i].Seq <= us[i-1].Seq {
				t.Errorf("%s: unit %d (seq %d) before unit %d (seq %d)", name, i-1, us[i-1].Seq, i, us[i].Seq)
			}
		}
	}
}
