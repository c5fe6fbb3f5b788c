package dataset

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestReadQuirks(t *testing.T) {
	samples, err := ReadFile(filepath.Join("testdata", "quirks.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(samples) != 1 {
		t.Fatalf("got %d samples", len(samples))
	}
	s := samples[0]
	if s.ID != "conv-quirks" || s.SpeakerA != "Caroline" || s.SpeakerB != "Melanie" {
		t.Errorf("header = %q %q %q", s.ID, s.SpeakerA, s.SpeakerB)
	}
	var order []int
	for _, ss := range s.Sessions {
		order = append(order, ss.Index)
	}
	if want := []int{1, 2, 9, 10}; !slices.Equal(order, want) {
		t.Errorf("session order %v, want %v", order, want)
	}
	var ids []string
	for _, tr := range s.Turns() {
		ids = append(ids, tr.DiaID)
	}
	if want := []string{"D1:1", "D1:2", "D2:1", "D2:2", "D9:1", "D10:1"}; !slices.Equal(ids, want) {
		t.Errorf("replay order %v, want %v", ids, want)
	}
	if tr, ok := s.Turn("D2:1"); !ok || tr.Text != "We went camping in 2022." {
		t.Errorf("Turn(D2:1) = %+v, %v", tr, ok)
	}

	tests := []struct {
		name string
		got  QA
		want QA
	}{
		{"numeric answer", s.QA[0], QA{Question: "When did Melanie go camping?", Answer: "2022", Evidence: []string{"D2:1"}, Category: Temporal}},
		{"stray spaces", s.QA[1], QA{Question: "What does Melanie paint?", Answer: "Sunrises", Evidence: []string{"D1:2", "D10:1"}, Category: SingleHop}},
		{"adversarial answer, joined ids", s.QA[2], QA{Question: "What did Caroline paint?", AdversarialAnswer: "sunrises", Evidence: []string{"D1:2", "D2:2"}, Category: Adversarial}},
		{"dangling evidence kept", s.QA[3], QA{Question: "Who speaks in session nine?", Answer: "Melanie", Evidence: []string{"D9:1", "D99:1"}, Category: MultiHop}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !reflect.DeepEqual(tt.got, tt.want) {
				t.Errorf("got %+v\nwant %+v", tt.got, tt.want)
			}
		})
	}

	if ev := s.Evidence(s.QA[3]); len(ev) != 1 || ev[0].DiaID != "D9:1" {
		t.Errorf("Evidence skips unknown ids: got %+v", ev)
	}
	if err := s.Validate(); !errors.Is(err, ErrDanglingEvidence) {
		t.Errorf("Validate = %v, want ErrDanglingEvidence", err)
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	fixture, err := ReadFile(filepath.Join("testdata", "quirks.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultGenConfig()
	cfg.Samples = 2
	tests := []struct {
		name    string
		samples []Sample
	}{
		{"fixture", fixture},
		{"generated", generate(t, cfg)},
		{"empty", []Sample{}},
		{"html and unicode", []Sample{{ID: "x", SpeakerA: "Zoë", SpeakerB: "<b>", Sessions: []Session{
			{Index: 3, DateTime: "now", Turns: []Turn{{Speaker: "Zoë", DiaID: "D3:1", Text: "a & b <i> \"q\" \u2028"}}},
		}, QA: []QA{{Question: "?", Answer: "", Evidence: []string{}, Category: OpenDomain}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := encode(t, tt.samples)
			back, err := Read(bytes.NewReader(first))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(normalised(back), normalised(tt.samples)) {
				t.Fatalf("round trip changed the samples")
			}
			if second := encode(t, back); !bytes.Equal(first, second) {
				t.Fatal("second encoding differs")
			}
		})
	}
}

// normalised maps nil and empty slices alike, which JSON cannot tell apart.
func normalised(ss []Sample) []Sample {
	out := slices.Clone(ss)
	for i := range out {
		out[i].QA = slices.Clone(out[i].QA)
		for j := range out[i].QA {
			if len(out[i].QA[j].Evidence) == 0 {
				out[i].QA[j].Evidence = nil
			}
		}
		if len(out[i].QA) == 0 {
			out[i].QA = nil
		}
	}
	return out
}

func TestReadMalformed(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  error
	}{
		{"empty", ``, ErrFormat},
		{"not json", `{{`, ErrFormat},
		{"not an array", `{"sample_id": "x"}`, ErrFormat},
		{"null", `null`, ErrFormat},
		{"trailing data", `[] []`, ErrFormat},
		{"no conversation", `[{"sample_id": "x", "qa": []}]`, ErrFormat},
		{"conversation not an object", `[{"conversation": []}]`, ErrFormat},
		{"session without date", `[{"conversation": {"session_1": [{"dia_id": "D1:1", "text": "hi"}]}}]`, ErrFormat},
		{"session not an array", `[{"conversation": {"session_1_date_time": "d", "session_1": "hi"}}]`, ErrFormat},
		{"date not a string", `[{"conversation": {"session_1_date_time": 5, "session_1": []}}]`, ErrFormat},
		{"turn without dia_id", `[{"conversation": {"session_1_date_time": "d", "session_1": [{"text": "hi"}]}}]`, ErrFormat},
		{"duplicated dia_id", `[{"conversation": {"session_1_date_time": "d", "session_1": [{"dia_id": "D1:1"}],
			"session_2_date_time": "e", "session_2": [{"dia_id": "D1:1"}]}}]`, ErrDuplicateTurn},
		{"category out of range", `[{"conversation": {}, "qa": [{"question": "q", "answer": "a", "category": 6}]}]`, ErrFormat},
		{"category missing", `[{"conversation": {}, "qa": [{"question": "q", "answer": "a"}]}]`, ErrFormat},
		{"answer is an object", `[{"conversation": {}, "qa": [{"question": "q", "answer": {}, "category": 1}]}]`, ErrFormat},
		{"evidence not strings", `[{"conversation": {}, "qa": [{"question": "q", "evidence": [1], "category": 1}]}]`, ErrFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.input))
			if !errors.Is(err, tt.want) || !errors.Is(err, ErrFormat) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestWriteRejectsUnreadable(t *testing.T) {
	tests := []struct {
		name string
		s    Sample
	}{
		{"session index 0", Sample{Sessions: []Session{{Index: 0, DateTime: "d"}}}},
		{"session twice", Sample{Sessions: []Session{{Index: 1, DateTime: "d"}, {Index: 1, DateTime: "e"}}}},
		{"no date", Sample{Sessions: []Session{{Index: 1}}}},
		{"duplicate turn", Sample{Sessions: []Session{{Index: 1, DateTime: "d", Turns: []Turn{{DiaID: "a"}, {DiaID: "a"}}}}}},
		{"bad category", Sample{QA: []QA{{Category: 0}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, []Sample{tt.s}); !errors.Is(err, ErrFormat) {
				t.Fatalf("err = %v, want ErrFormat", err)
			}
			if buf.Len() != 0 {
				t.Error("wrote output despite the error")
			}
		})
	}
}

func TestCategoryString(t *testing.T) {
	tests := []struct {
		c    Category
		want string
	}{
		{MultiHop, "multi-hop"}, {Temporal, "temporal"}, {OpenDomain, "open-domain"},
		{SingleHop, "single-hop"}, {Adversarial, "adversarial"}, {0, "category(0)"}, {9, "category(9)"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := tt.c.String(); got != tt.want {
				t.Errorf("got %q", got)
			}
		})
	}
}

// FuzzRead checks that Read never panics and that whatever it accepts
// survives a Write/Read round trip unchanged.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`[]`))
	f.Add([]byte(`[{"sample_id": 1, "conversation": {"session_1_date_time": "d", "session_1": [{"dia_id": "D1:1", "text": "hi"}]}, "qa": [{"question": "q", "answer": 3, "evidence": ["D1:1 ; D2:2"], "category": 5}]}]`))
	f.Add([]byte(`[{"conversation": {"session_01": [], "session_1_date_time": "x"}}]`))
	if b, err := Read(bytes.NewReader(mustFixture(f))); err == nil {
		f.Add(encode(f, b))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		samples, err := Read(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v does not match ErrFormat", err)
			}
			return
		}
		first := encode(t, samples)
		back, err := Read(bytes.NewReader(first))
		if err != nil {
			t.Fatalf("re-read: %v", err)
		}
		if second := encode(t, back); !bytes.Equal(first, second) {
			t.Fatalf("round trip differs:\n%s\n%s", first, second)
		}
	})
}

func mustFixture(f *testing.F) []byte {
	samples, err := ReadFile(filepath.Join("testdata", "quirks.json"))
	if err != nil {
		f.Fatal(err)
	}
	return encode(f, samples)
}
