package credit

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/engram-go/engram"
)

func unit(xs ...float32) []float32 {
	var n float32
	for _, x := range xs {
		n += x * x
	}
	n = float32(math.Sqrt(float64(n)))
	out := make([]float32, len(xs))
	for i, x := range xs {
		out[i] = x / n
	}
	return out
}

func TestRatingFollowsItsLoad(t *testing.T) {
	tests := []struct {
		name    string
		saves   int
		loaded  bool
		credits bool
	}{
		{"right after the load", 0, true, true},
		{"after the rated exchange is saved", 1, true, true},
		{"after a second question", 2, true, false},
		{"with no load", 0, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := New()
			if tc.loaded {
				l.Loaded(unit(1, 0), "", []string{"a"})
			}
			for range tc.saves {
				l.Saved()
			}
			if _, ok := l.Rate(1); ok != tc.credits {
				t.Fatalf("Rate credited %v, want %v", ok, tc.credits)
			}
		})
	}
}

func TestAnswerComesBackForTheSameQuestionOnly(t *testing.T) {
	l := New()
	q, near, other := unit(1, 0.01), unit(1, 0.02), unit(1, 1)
	l.Loaded(q, "", []string{"a", "b"})
	l.Rate(1)
	if m := l.Multiplier("a", l.Answers(q, "")); m <= 1.5 {
		t.Fatalf("the same question: multiplier %v, want well above 1", m)
	}
	if m := l.Multiplier("a", l.Answers(near, "")); m <= 1.5 {
		t.Fatalf("nearly the same question: multiplier %v, want well above 1", m)
	}
	if ans := l.Answers(other, ""); ans != nil {
		t.Fatalf("another question (cosine 0.71) matched a filed answer: %v", ans)
	}
	if m := l.Multiplier("c", l.Answers(q, "")); m != 1 {
		t.Fatalf("a unit the load did not show: multiplier %v, want 1", m)
	}
}

func TestRatedDownMakesRoom(t *testing.T) {
	l := New()
	q := unit(0, 1)
	l.Loaded(q, "", []string{"a"})
	l.Rate(-1)
	if m := l.Multiplier("a", l.Answers(q, "")); m >= 0.5 {
		t.Fatalf("an answer rated down: multiplier %v, want well below 1", m)
	}
}

// A partly right answer held some of what the question needs, and no one
// says which of its units: asked again, all of them are shown again, the
// more the more of it was right; only the lowest rating lets them go.
func TestPartlyRightKeepsItsUnits(t *testing.T) {
	q := unit(0, 1)
	var last float64
	for _, r := range []float64{-0.5, 0, 0.5, 1} {
		l := New()
		l.Loaded(q, "", []string{"a", "b"})
		l.Rate(r)
		m := l.Multiplier("a", l.Answers(q, ""))
		if m <= 1 || m <= last {
			t.Fatalf("an answer rated %v: multiplier %v, want above 1 and above a lower rating's %v", r, m, last)
		}
		if mb := l.Multiplier("b", l.Answers(q, "")); mb != m {
			t.Fatalf("an answer rated %v: its units' multipliers %v and %v differ", r, m, mb)
		}
		last = m
	}
}

// Most answers are rated up: a unit's standing is measured against the
// mean, so a unit shown in ordinary answers gains nothing, and one shown
// in the answers rated worse than usual loses.
func TestStandingIsCentred(t *testing.T) {
	l := New()
	for i := range 200 {
		q := unit(float32(i%7), 1, float32(i%5)) // questions of all kinds
		keys := []string{"common"}
		r := 1.0
		if i%4 == 0 {
			keys, r = append(keys, "bad"), 0
		}
		l.Loaded(q, "", keys)
		l.Rate(r)
	}
	common := l.Multiplier("common", nil)
	bad := l.Multiplier("bad", nil)
	if math.Abs(common-1) > 0.1 {
		t.Errorf("a unit in every answer: multiplier %v, want about 1", common)
	}
	if bad >= 0.9 || bad >= common {
		t.Errorf("a unit only in the worse answers: multiplier %v (common %v), want below both 0.9 and common", bad, common)
	}
}

func TestBounded(t *testing.T) {
	l := New()
	q := unit(1, 0)
	for range 3 * MaxAnswers {
		l.Loaded(q, "", []string{"a"})
		l.Rate(1)
	}
	if len(l.answers) != MaxAnswers {
		t.Fatalf("%d answers filed, want at most %d", len(l.answers), MaxAnswers)
	}
	if m := l.Multiplier("a", l.Answers(q, "")); m > math.Exp(maxLog)+1e-9 {
		t.Fatalf("multiplier %v past its bound", m)
	}
	l.Loaded(q, "", []string{"a"})
	if _, ok := l.Rate(math.NaN()); ok {
		t.Fatal("a NaN rating was credited")
	}
	l.Forget("a")
	if _, ok := l.units["a"]; ok {
		t.Fatal("Forget kept the unit's standing")
	}
	l.Clear()
	if l.Touched() || l.Ratings() != 0 {
		t.Fatal("Clear kept what ratings taught")
	}
}

// An answer is shown again only for a question with its numbers and
// names: word vectors do not see them, so "desk 0" and "desk 417" are one
// vector, and a rating of the first must not move the second's load.
func TestAnswersNeedTheQuestionsMarks(t *testing.T) {
	q := unit(1, 0)
	// A name is a mark where it is capitalised: the same question typed
	// in lower case still asks it, one about another name does not.
	for rated, asked := range map[string]map[string]bool{
		"What is the code of desk 0?": {
			"What is the code of desk 0?":      true,
			"what's the CODE of desk 0":        true,
			"What is the code of desk 417?":    false,
			"What is the code of Omar's desk?": false,
			"What is the code of the desk?":    false,
		},
		"Where does Alice live?": {
			"where does alice live?": true,
			"WHERE DOES ALICE LIVE?": true,
			"Where does Bob live?":   false,
			"where does bob live?":   false,
		},
	} {
		l := New()
		l.Loaded(q, rated, []string{"a"})
		l.Rate(1)
		for question, want := range asked {
			if got := l.Multiplier("a", l.Answers(q, question)) > 1; got != want {
				t.Errorf("%q after the answer to %q was rated: moved %v, want %v", question, rated, got, want)
			}
		}
	}
	if got, _ := describe("When did Caroline and Melanie meet Omar in 2023?"); got != "2023 carolin melani omar" {
		t.Errorf("marks %q, want the year and the three names, stemmed", got)
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	l := New()
	for i := range 40 {
		l.Loaded(unit(float32(i%3), 1), fmt.Sprintf("the code of desk %d", i%3), []string{"a", "b"})
		l.Rate(float64(i%3) - 1)
		l.Learn([]engram.Features{{Relevance: 1, Recency: 1}}, float64(i%3)-1)
	}
	b, err := l.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m := New()
	if err := m.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	q := unit(1, 1)
	f := engram.Features{Relevance: 0.5, Recency: 1}
	if x, y := l.Multiplier("a", l.Answers(q, "the code of desk 1")), m.Multiplier("a", m.Answers(q, "the code of desk 1")); x != y || x == 1 {
		t.Fatalf("multiplier %v, restored %v; want them equal and not 1", x, y)
	}
	if x, y := l.Correction(f), m.Correction(f); x != y {
		t.Fatalf("correction %v, restored %v", x, y)
	}
	if m.Pending() {
		t.Fatal("a restored ledger has a load to rate")
	}
	c, _ := m.MarshalBinary()
	if string(c) != string(b) {
		t.Fatal("marshalling the restored ledger gives other bytes")
	}
	for i := range b {
		damaged := append([]byte(nil), b[:i]...)
		if err := New().UnmarshalBinary(damaged); !errors.Is(err, ErrFormat) {
			t.Fatalf("truncated to %d bytes: err = %v", i, err)
		}
	}
}

func FuzzUnmarshal(f *testing.F) {
	l := New()
	l.Loaded(unit(1, 0), "", []string{"a"})
	l.Rate(1)
	b, _ := l.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		m := New()
		if err := m.UnmarshalBinary(data); err != nil {
			return
		}
		for _, q := range [][]float32{unit(1, 0), unit(0, 1)} {
			if x := m.Multiplier("a", m.Answers(q, "")); math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 {
				t.Fatalf("multiplier %v", x)
			}
		}
		m.Correction(engram.Features{Relevance: 1})
	})
}

// The gate ratings teach stays a few hundred bytes, however much it learns.
func TestKindsStaySmall(t *testing.T) {
	l := New()
	for i := range 5000 {
		l.Learn([]engram.Features{{Relevance: float64(i % 7), Recency: float64(i%3) / 2, Tokens: i % 200, Role: engram.Role(i % 3)}}, float64(i%5)/2-1)
	}
	if n := len(l.MarshalKinds()); n == 0 || n > 4096 {
		t.Fatalf("the kinds gate saves as %d bytes, want 1 to 4,096", n)
	}
}

// A load whose question an embedder turned into NaN is rated as a load
// without a question: what it showed keeps a finite relevance for every
// later question, and no saved ledger holds such a vector.
func TestQuestionWithoutUsableVector(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	for _, q := range [][]float32{{nan, 0}, {inf, 0}, {3, 4}} {
		l := New()
		l.Loaded(q, "", []string{"a"})
		if _, ok := l.Rate(1); !ok {
			t.Fatal("the load was not rated")
		}
		for _, later := range [][]float32{unit(1, 0), unit(0, 1), q} {
			if m := l.Multiplier("a", l.Answers(later, "")); math.IsNaN(m) || math.IsInf(m, 0) || m <= 0 {
				t.Fatalf("question %v rated: multiplier %v for question %v", q, m, later)
			}
		}
	}
	// A forged saved ledger with such a vector is refused.
	l := New()
	l.Loaded(unit(1, 0), "", []string{"a"})
	l.Rate(1)
	b, _ := l.MarshalBinary()
	one := []byte{0, 0, 0x80, 0x3f} // 1 as a little-endian float32
	for _, bits := range []uint32{math.Float32bits(nan), math.Float32bits(inf), math.Float32bits(2)} {
		d := bytes.Replace(b, one, binary.LittleEndian.AppendUint32(nil, bits), 1)
		if bytes.Equal(d, b) {
			t.Fatal("the saved ledger holds no question vector to damage")
		}
		if err := New().UnmarshalBinary(d); !errors.Is(err, ErrFormat) {
			t.Fatalf("a question's vector with %v: err = %v", math.Float32frombits(bits), err)
		}
	}
}

// An embedder leaves a vector's length off by a ten-thousandth or so; the
// same question asked again must weigh its answer as if it were exact, not
// a fifth more or less through the power the cosine is taken to.
func TestNearUnitQuestionWeighsAsExact(t *testing.T) {
	q := unit(3, 4, 1)
	exact := New()
	exact.Loaded(q, "", []string{"a"})
	exact.Rate(1)
	want := exact.Multiplier("a", exact.Answers(q, ""))
	for _, scale := range []float32{0.99995, 1.00005, 1.0004} {
		off := make([]float32, len(q))
		for i, x := range q {
			off[i] = x * scale
		}
		l := New()
		l.Loaded(off, "", []string{"a"})
		l.Rate(1)
		for _, ask := range [][]float32{q, off} {
			if got := l.Multiplier("a", l.Answers(ask, "")); math.Abs(got-want) > 1e-4*want {
				t.Fatalf("vectors scaled by %v: multiplier %v, want %v as for exact unit vectors", scale, got, want)
			}
		}
		b, err := l.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		r := New()
		if err := r.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if got := r.Multiplier("a", r.Answers(off, "")); math.Abs(got-want) > 1e-4*want {
			t.Fatalf("restored, vectors scaled by %v: multiplier %v, want %v", scale, got, want)
		}
	}
}
