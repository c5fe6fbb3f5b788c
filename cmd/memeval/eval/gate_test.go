package eval

import (
	"context"
	"io"
	"log"
	"os"
	"testing"

	"github.com/engram-go/engram/cmd/memeval/dataset"
)

// TestConversationRecall replays synthetic conversations (memeval's
// generator, seed 1, five samples) into ratedistortion with the hand-set
// weights ("rd"), the label-free gate ("rd-gate": option.WithGate,
// replayed as an agent loop so that the buffer learns whether the
// conversation comes back to what a load kept) and the
// supervised gate fit on seed 2's evidence labels ("rd-gate-sup"), and checks
// that at 1,024 tokens the label-free gate recalls at least 95 % of the
// supervised gate and is within 0.01 of the hand-set weights. Whether it
// matches the hand-set weights is decided on real dialogue
// (TestRealDialogue), not on generated text. It runs with
// ENGRAM_EVAL=1 only.
func TestConversationRecall(t *testing.T) {
	if os.Getenv("ENGRAM_EVAL") == "" {
		t.Skip("set ENGRAM_EVAL=1 to replay five conversations three times")
	}
	log.SetOutput(io.Discard)
	cfg := dataset.DefaultGenConfig()
	cfg.Samples = 5
	ss, err := dataset.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := Select(append(Engram(), Gates()...), "rd,rd-gate,rd-gate-sup")
	if err != nil {
		t.Fatal(err)
	}
	const budget = 1024
	rs, err := Run(context.Background(), ss, Config{Budgets: []int{budget}, Memories: ms})
	if err != nil {
		t.Fatal(err)
	}
	recall := func(name string) float64 {
		r, ok := Find(rs, name, budget)
		if !ok {
			t.Fatalf("no result for %s", name)
		}
		return r.Recall
	}
	hand, free, sup := recall("rd"), recall("rd-gate"), recall("rd-gate-sup")
	t.Logf("evidence recall at %d tokens: hand-set %.3f, label-free gate %.3f, supervised gate %.3f", budget, hand, free, sup)
	if free < 0.95*sup {
		t.Errorf("label-free recall %.3f < 95%% of supervised %.3f", free, sup)
	}
	if free < hand-0.01 {
		t.Errorf("label-free recall %.3f more than 0.01 below hand-set %.3f", free, hand)
	}
}
