package engram

import (
	"context"
	"fmt"
	"testing"
)

func TestFactKeyFolds(t *testing.T) {
	tests := []struct {
		a, b Fact
		same bool
	}{
		{Fact{"Omar", "home city", "Lisbon"}, Fact{"omar", "Home  City", "Berlin"}, true},
		{Fact{"Omar", "home city", ""}, Fact{" Omar ", "home-city!", ""}, true},
		{Fact{"Omar's sister Leah", "employer", "x"}, Fact{"omar s sister leah", "employer", "y"}, true},
		{Fact{"Omar", "home city", "x"}, Fact{"Omar", "employer", "x"}, false},
		{Fact{"Omar", "home city", "x"}, Fact{"Omari", "home city", "x"}, false},
		{Fact{"Zoë", "café", "x"}, Fact{"ZOË", "CAFÉ", "x"}, true},
	}
	for _, tt := range tests {
		if got := tt.a.Key() == tt.b.Key(); got != tt.same {
			t.Errorf("%q vs %q: same key %v, want %v", tt.a.Key(), tt.b.Key(), got, tt.same)
		}
	}
	if !(Fact{Value: "Tuesday at 4 pm"}).SameValue(Fact{Value: "tuesday, at 4 PM."}) {
		t.Error("values that differ only in case and punctuation differ")
	}
	if (Fact{Value: "555-0118"}).SameValue(Fact{Value: "555-0113"}) {
		t.Error("different numbers are the same value")
	}
}

func TestFactValid(t *testing.T) {
	for _, f := range []Fact{{"", "r", "v"}, {"s", " ", "v"}, {"s", "r", "?!"}} {
		if f.Valid() {
			t.Errorf("%+v is valid", f)
		}
	}
	if !(Fact{"s", "r", "v"}).Valid() {
		t.Error("a full fact is not valid")
	}
}

func ExampleFact_Key() {
	old := Fact{Subject: "Omar", Relation: "home city", Value: "Lisbon"}
	moved := Fact{Subject: "omar", Relation: "Home City", Value: "Edinburgh"}
	fmt.Println(old.Key(), old.Key() == moved.Key(), old.SameValue(moved))
	// Output: omar|home city true false
}

func ExampleFactExtractor() {
	// An extractor that knows one sentence; a real one asks a model
	// (adapters/langchaingo.FactExtractor).
	var ex FactExtractor = func(_ context.Context, u Unit, _ []Fact) ([]Fact, error) {
		if u.Text == "Omar: we moved to Edinburgh" {
			return []Fact{{Subject: "Omar", Relation: "home city", Value: "Edinburgh"}}, nil
		}
		return nil, nil
	}
	fs, _ := ex(context.Background(), Unit{Text: "Omar: we moved to Edinburgh"}, nil)
	fmt.Println(fs[0].Key(), "=", fs[0].Value)
	// Output: omar|home city = Edinburgh
}
