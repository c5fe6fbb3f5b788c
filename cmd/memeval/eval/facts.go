package eval

import (
	"context"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/cmd/memeval/dataset"
	"github.com/engram-go/engram/cmd/memeval/updates"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/option"
	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/schema"
)

// FactMemories returns engram's backends reading facts with the update
// set's own answer key ("rd-facts", "dmem-facts"): every statement of a value gives its
// fact, exactly as the set made it up, and nothing else does. It measures
// what superseding facts does for a memory whose extractor reads every
// update — the most a model-based extractor
// (adapters/langchaingo.FactExtractor) could add, which no test here can
// run — and so separates the memory's part from the extractor's. With
// miss > 0 the key leaves every miss-th statement unread (counted across
// the set, in order), as an extractor that misses some updates would.
func FactMemories(us []updates.Sample, miss int) []Memory {
	key := make(map[string]map[string][]engram.Fact, len(us)) // sample → text → facts
	n := 0
	for i := range us {
		s := &us[i]
		texts := make(map[string][]engram.Fact)
		for _, f := range s.Facts {
			for _, v := range f.Values {
				t, ok := s.Turn(v.DiaID)
				if n++; !ok || miss > 0 && n%miss == 0 {
					continue
				}
				fact := engram.Fact{Subject: f.Subject, Relation: string(f.Relation), Value: v.Value}
				texts[t.Text] = append(texts[t.Text], fact)
				texts[t.Speaker+": "+t.Text] = append(texts[t.Speaker+": "+t.Text], fact)
			}
		}
		key[s.ID] = texts
	}
	extractor := func(s *dataset.Sample) engram.FactExtractor {
		texts := key[s.ID]
		return func(_ context.Context, u engram.Unit, _ []engram.Fact) ([]engram.Fact, error) {
			return texts[u.Text], nil
		}
	}
	return []Memory{
		{Name: "rd-facts", Engram: true, New: func(ctx context.Context, budget int, s *dataset.Sample) (schema.Memory, error) {
			return ratedistortion.New(option.WithTokenBudget(budget), option.WithClock(ReplayClock(ctx)),
				option.WithFacts(extractor(s)))
		}},
		{Name: "dmem-facts", Engram: true, New: func(ctx context.Context, budget int, s *dataset.Sample) (schema.Memory, error) {
			return dmem.New(ctx, option.WithTokenBudget(budget), option.WithClock(ReplayClock(ctx)), option.WithFacts(extractor(s)))
		}, Close: func(m schema.Memory) error { return m.(*dmem.Memory).Close() }},
	}
}
