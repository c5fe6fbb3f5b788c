package dmem

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/schema"
)

// Evictions empty slots of the words index; rebuilds keep it within a third
// more than the resident units, every resident unit in its slot, and what
// remains findable by its words.
func TestWordsIndexCompacts(t *testing.T) {
	m := newMemory(t, WithMaxUnits(50), WithShortTerm(0), WithTokenBudget(100))
	for i := range 400 {
		doc := schema.Document{PageContent: fmt.Sprintf("%s moved to %s in %d (note %d).", fxNames[i%len(fxNames)], fxCities[i%len(fxCities)], 1900+i, i)}
		if _, err := m.AddDocuments(bg, []schema.Document{doc}); err != nil {
			t.Fatal(err)
		}
	}
	m.mu.RLock()
	n, resident := m.words.Len(), len(m.byID)
	for _, u := range m.byID {
		if m.words.unit(u.slot) != u {
			m.mu.RUnlock()
			t.Fatalf("unit %s is not in its slot %d", u.ID, u.slot)
		}
	}
	var kept *unit
	for _, u := range m.heap {
		if kept == nil || u.Seq < kept.Seq {
			kept = u
		}
	}
	m.mu.RUnlock()
	if n > resident+max(64, resident/3) {
		t.Fatalf("words index has %d slots for %d resident units", n, resident)
	}
	year := strings.Fields(kept.Text)[5] // "<name> moved to <city> in <year> …"
	if h := load(t, m, "Who moved in "+year+"?"); !strings.Contains(h, kept.Text) {
		t.Fatalf("the oldest resident unit %q is not found by its year:\n%s", kept.Text, h)
	}
}
