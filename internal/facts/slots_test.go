package facts

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/engram-go/engram"
)

func city(v string) engram.Fact { return engram.Fact{Subject: "Omar", Relation: "home city", Value: v} }
func job(v string) engram.Fact  { return engram.Fact{Subject: "Omar", Relation: "employer", Value: v} }

func TestCleanDropsInvalidAndKeepsOnePerSlot(t *testing.T) {
	got := Clean([]engram.Fact{city("Lisbon"), {Subject: "", Relation: "x", Value: "y"}, job("Kestrel"), city("Porto")})
	want := []engram.Fact{job("Kestrel"), city("Porto")}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Clean = %v, want %v", got, want)
	}
	if Clean(nil) != nil || Clean([]engram.Fact{{}}) != nil {
		t.Fatal("Clean of nothing valid is not nil")
	}
}

func TestSlotsSupersede(t *testing.T) {
	var s Slots
	s.Add(1, []engram.Fact{city("Lisbon")})
	s.Add(4, []engram.Fact{job("Kestrel")})
	if _, ok := s.SupersededBy(1, []engram.Fact{city("Lisbon")}); ok {
		t.Fatal("the only statement of a slot is superseded")
	}
	s.Add(7, []engram.Fact{city("edinburgh")})
	if by, ok := s.SupersededBy(1, []engram.Fact{city("Lisbon")}); !ok || by != 7 {
		t.Fatalf("SupersededBy = %d, %v; want 7", by, ok)
	}
	if _, ok := s.SupersededBy(7, []engram.Fact{city("edinburgh")}); ok {
		t.Fatal("the newest statement is superseded")
	}
	// A restatement of the same value supersedes nothing.
	s.Add(9, []engram.Fact{city("Edinburgh.")})
	if _, ok := s.SupersededBy(7, []engram.Fact{city("edinburgh")}); ok {
		t.Fatal("a restatement superseded the same value")
	}
	if by, _ := s.SupersededBy(1, []engram.Fact{city("Lisbon")}); by != 9 {
		t.Fatalf("superseded by %d, want the newest statement 9", by)
	}
	// Evicting the newest falls back to the one before.
	s.Remove(9, []engram.Fact{city("Edinburgh.")})
	s.Remove(7, []engram.Fact{city("edinburgh")})
	if _, ok := s.SupersededBy(1, []engram.Fact{city("Lisbon")}); ok {
		t.Fatal("a removed statement still supersedes")
	}
	// Out of order: a recalled older unit is superseded by the pool's.
	s.Add(0, []engram.Fact{job("Halcyon")})
	if by, ok := s.SupersededBy(0, []engram.Fact{job("Halcyon")}); !ok || by != 4 {
		t.Fatalf("SupersededBy = %d, %v; want 4", by, ok)
	}
	s.Add(0, []engram.Fact{job("Halcyon")}) // twice is once
	s.Remove(0, []engram.Fact{job("Halcyon")})
	if by, ok := s.SupersededBy(0, []engram.Fact{job("Halcyon")}); !ok || by != 4 {
		t.Fatal("adding a unit twice recorded it twice")
	}
}

func TestSlotsKnownNewestFirst(t *testing.T) {
	var s Slots
	if s.Known(5) != nil {
		t.Fatal("an empty table knows something")
	}
	s.Add(1, []engram.Fact{city("Lisbon")})
	s.Add(2, []engram.Fact{job("Kestrel")})
	s.Add(3, []engram.Fact{city("Porto")})
	if got, want := s.Known(5), []engram.Fact{city("Porto"), job("Kestrel")}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Known = %v, want %v", got, want)
	}
	if got := s.Known(1); len(got) != 1 || got[0] != city("Porto") {
		t.Fatalf("Known(1) = %v", got)
	}
	if s.Len() != 2 {
		t.Fatalf("Len = %d, want 2", s.Len())
	}
	s.Clear()
	if s.Len() != 0 {
		t.Fatal("Clear kept slots")
	}
}

func TestSupersedePassesRelevanceOn(t *testing.T) {
	rel := []float64{0.9, 0.1, 0.2, 0.05}
	// 0 is superseded by 3; 1 by 2.
	by := map[int]int{0: 3, 1: 2}
	n := Supersede(rel, func(i int) (int, bool) { j, ok := by[i]; return j, ok })
	want := []float64{0.9 * StaleShare, 0.1 * StaleShare, 0.2, 0.9}
	if n != 2 || !reflect.DeepEqual(rel, want) {
		t.Fatalf("Supersede = %d, %v; want 2, %v", n, rel, want)
	}
	// Out-of-range successors are ignored.
	rel = []float64{1, 2}
	if n := Supersede(rel, func(int) (int, bool) { return 5, true }); n != 0 || rel[0] != 1 {
		t.Fatalf("an out-of-range successor moved relevance: %d, %v", n, rel)
	}
}

func TestAskGivesTheMostLikeSlotTheBestRelevance(t *testing.T) {
	rel := []float64{2, 0.1, 0.1, 0.1}
	Ask(rel, []Asked{{Unit: 1, Cosine: 0.95}, {Unit: 2, Cosine: SlotFloor + (1-SlotFloor)/2}, {Unit: 3, Cosine: 0.3}, {Unit: 9, Cosine: 1}})
	for i, want := range []float64{2, 2, 1, 0.1} {
		if math.Abs(rel[i]-want) > 1e-9 {
			t.Fatalf("Ask = %v, want %v at %d", rel, want, i)
		}
	}
	// No slot like enough: nothing moves.
	rel = []float64{2, 0.1}
	Ask(rel, []Asked{{Unit: 1, Cosine: SlotFloor - 0.01}})
	if rel[1] != 0.1 {
		t.Fatalf("a slot below the floor moved relevance: %v", rel)
	}
}

func TestWordsAddsTheSlotsWords(t *testing.T) {
	terms := []string{"relocat", "edinburgh"}
	got := Words(terms, []engram.Fact{city("Edinburgh"), {Subject: "Omar", Relation: "edinburgh", Value: "x"}})
	if want := []string{"relocat", "edinburgh", "omar", "hom", "citi"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Words = %v, want %v", got, want)
	}
	if !reflect.DeepEqual(terms, []string{"relocat", "edinburgh"}) {
		t.Fatalf("Words changed its input: %v", terms)
	}
	if got := Words(terms, nil); &got[0] != &terms[0] {
		t.Fatal("Words without facts copied the terms")
	}
}

func TestCleanKeepsAtMostMaxPerUnit(t *testing.T) {
	fs := make([]engram.Fact, 400)
	for i := range fs {
		fs[i] = engram.Fact{Subject: "Omar", Relation: "r" + strconv.Itoa(i%150), Value: "v"}
	}
	got := Clean(fs)
	if len(got) != MaxPerUnit {
		t.Fatalf("Clean kept %d facts, want %d", len(got), MaxPerUnit)
	}
	// The last statement of each slot wins, in its place.
	if got[0].Relation != "r100" {
		t.Fatalf("Clean kept %v first", got[0])
	}
}

func TestCleanCutsLongFields(t *testing.T) {
	long := strings.Repeat("é", MaxFieldRunes+10)
	got := Clean([]engram.Fact{{Subject: "Omar", Relation: "motto", Value: long}})
	if len(got) != 1 || utf8.RuneCountInString(got[0].Value) != MaxFieldRunes || !utf8.ValidString(got[0].Value) {
		t.Fatalf("Clean kept a value of %d runes", utf8.RuneCountInString(got[0].Value))
	}
	// Two subjects equal in their first MaxFieldRunes runes are one slot.
	a, b := strings.Repeat("a", MaxFieldRunes)+"x", strings.Repeat("a", MaxFieldRunes)+"y"
	if got := Clean([]engram.Fact{{Subject: a, Relation: "r", Value: "1"}, {Subject: b, Relation: "r", Value: "2"}}); len(got) != 1 || got[0].Value != "2" {
		t.Fatalf("Clean = %v", got)
	}
}

func TestStatedPutsTheNewFirst(t *testing.T) {
	known := []engram.Fact{city("Lisbon"), job("Kestrel")}
	got := Stated([]engram.Fact{city("Porto")}, known)
	if want := []engram.Fact{city("Porto"), job("Kestrel")}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Stated = %v, want %v", got, want)
	}
	if got := Stated(nil, known); !reflect.DeepEqual(got, known) {
		t.Fatalf("Stated of nothing = %v", got)
	}
}
