package langchaingo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
)

// A memory given the model's extractor answers with the newest value: the
// model sees the known slot when the value changes, names it the same
// way, and the memory supersedes the old statement.
func TestFactExtractorSupersedesInAMemory(t *testing.T) {
	m := &stubModel{reply: func(human string) string {
		// human holds the known slots, then the message.
		switch {
		case strings.Contains(human, "I live in Lisbon"):
			return "Omar | home city | Lisbon"
		case strings.Contains(human, "relocated to Edinburgh"):
			if !strings.Contains(human, "Omar | home city | Lisbon") {
				return "Omar | residence | Edinburgh" // a model that was not shown the slot
			}
			return "- Omar | home city | Edinburgh"
		}
		return "NONE"
	}}
	ex, err := FactExtractor(m)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mem, err := ratedistortion.New(option.WithTokenBudget(40), option.WithFacts(ex))
	if err != nil {
		t.Fatal(err)
	}
	save := func(in, out string) {
		t.Helper()
		if err := mem.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": out}); err != nil {
			t.Fatal(err)
		}
	}
	save("Omar: I live in Lisbon, in a little flat above a bakery.", "Lovely.")
	for i := range 20 {
		save(fmt.Sprintf("Omar: Marathon training, week %d, legs sore.", i), "Keep going!")
	}
	save("Omar: We relocated to Edinburgh last month, fresh start.", "What a change!")
	vars, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": "Which city does Omar live in?"})
	if err != nil {
		t.Fatal(err)
	}
	if h := vars["history"].(string); !strings.Contains(h, "Edinburgh") {
		t.Fatalf("the newest value is not shown:\n%s", h)
	}
	x, _ := mem.Explain()
	for _, u := range x.Units {
		if strings.Contains(u.Text, "Lisbon") && u.SupersededBy == "" {
			t.Errorf("the old statement is not superseded: %+v", u.Facts)
		}
	}
}

func TestFactExtractorRefusesATypedNilModel(t *testing.T) {
	var m *stubModel
	if _, err := FactExtractor(m); !errors.Is(err, engram.ErrInvalidOption) {
		t.Fatalf("FactExtractor(typed nil) = %v, want ErrInvalidOption", err)
	}
}
