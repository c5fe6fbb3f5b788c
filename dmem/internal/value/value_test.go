package value

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/engram-go/engram"
)

// A step that is rewarded r every time it recurs, each followed by itself,
// comes to be valued r/(1−γ), the discounted sum of its rewards; a step
// never rewarded stays near 0.
func TestLearnsTheDiscountedReturn(t *testing.T) {
	var m Model
	vec := []float32{0.6, 0.8}
	tool := Of(engram.RoleToolResult, engram.StepToolResult, 0, 12, 0.3, vec)
	chat := Of(engram.RoleHuman, engram.StepMessage, 0, 5, 0.1, nil)
	const gamma = 0.5
	for range 5000 {
		m.Learn(&tool, &tool, 1, gamma)
		m.Learn(&chat, &chat, 0, gamma)
	}
	if v := m.Online(&tool); math.Abs(v-1/(1-gamma)) > 0.1 {
		t.Errorf("V(rewarded step) = %.3f, want about %.1f", v, 1/(1-gamma))
	}
	if v := m.Online(&chat); math.Abs(v) > 0.1 {
		t.Errorf("V(unrewarded step) = %.3f, want about 0", v)
	}
	if m.Trailing(&tool) > m.Online(&tool)+1e-9 {
		t.Errorf("the target %.3f runs ahead of the online value %.3f", m.Trailing(&tool), m.Online(&tool))
	}
}

// A reward that is not finite teaches nothing; a model saved as JSON and
// read back goes on exactly as the one that was not saved.
func TestBadRewardAndRoundTrip(t *testing.T) {
	var m Model
	f := Of(engram.RoleAI, engram.StepMessage, engram.FlagNumber, 8, 0.5, []float32{1})
	if d := m.Learn(&f, nil, math.Inf(1), 0.9); d != 0 || m.Updates != 0 {
		t.Fatalf("an infinite reward: δ %v, %d updates", d, m.Updates)
	}
	m.Learn(&f, nil, 1, 0.9)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var r Model
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if m.Learn(&f, &f, 0.5, 0.9) != r.Learn(&f, &f, 0.5, 0.9) || m != r {
		t.Fatal("the restored model learns otherwise")
	}
}
