package gate_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/gate"
)

func TestNewOptions(t *testing.T) {
	tests := []struct {
		name string
		opts []gate.Option
		ok   bool
	}{
		{"defaults", nil, true},
		{"seed", []gate.Option{gate.WithSeed(42)}, true},
		{"rate", []gate.Option{gate.WithLearningRate(0.1)}, true},
		{"zero rate", []gate.Option{gate.WithLearningRate(0)}, false},
		{"NaN rate", []gate.Option{gate.WithLearningRate(math.NaN())}, false},
		{"huge rate", []gate.Option{gate.WithLearningRate(11)}, false},
		{"l2", []gate.Option{gate.WithL2(0)}, true},
		{"negative l2", []gate.Option{gate.WithL2(-1)}, false},
		{"NaN l2", []gate.Option{gate.WithL2(math.NaN())}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := gate.New(tt.opts...)
			if (err == nil) != tt.ok {
				t.Fatalf("New: err = %v, want ok = %v", err, tt.ok)
			}
			if err != nil && !errors.Is(err, engram.ErrInvalidOption) {
				t.Fatalf("New: %v does not wrap ErrInvalidOption", err)
			}
		})
	}
}

// fact and chatter are two kinds of unit a gate can learn to tell apart.
var (
	fact    = engram.Features{Relevance: 0.8, Tokens: 20, Role: engram.RoleHuman, Flags: engram.FlagName | engram.FlagDate, AgeSteps: 100}
	chatter = engram.Features{Relevance: 0.2, Tokens: 12, Role: engram.RoleAI, AgeSteps: 100, Recency: 0.01}
)

func TestLearning(t *testing.T) {
	tests := []struct {
		name  string
		teach func(g *gate.Gate)
	}{
		{"observe", func(g *gate.Gate) { g.Observe(fact, 1); g.Observe(chatter, 0) }},
		{"hindsight", func(g *gate.Gate) { g.Hindsight(fact, 1); g.Hindsight(chatter, -1) }},
		{"fit", func(g *gate.Gate) {
			g.Fit([]gate.Example{{Features: fact, Label: 1}, {Features: chatter, Label: 0}}, 1)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := gate.New()
			if a, b := g.Score(fact), g.Score(chatter); a != 0.5 || b != 0.5 {
				t.Fatalf("untrained scores %v, %v, want 0.5", a, b)
			}
			for range 50 {
				tt.teach(g)
			}
			if a, b := g.Score(fact), g.Score(chatter); !(a > 0.9 && b < 0.1) {
				t.Fatalf("after teaching: fact %.3f, chatter %.3f", a, b)
			}
		})
	}
}

func TestNoOps(t *testing.T) {
	g, _ := gate.New()
	before, _ := g.MarshalBinary()
	for _, r := range []float64{0, math.NaN(), math.Inf(1), math.Inf(-1)} {
		g.Hindsight(fact, r)
	}
	g.Observe(fact, math.NaN())
	g.Fit([]gate.Example{{Features: fact, Label: math.NaN()}}, 3)
	g.Fit(nil, 3)
	after, _ := g.MarshalBinary()
	if !bytes.Equal(before, after) {
		t.Fatal("zero, NaN or infinite feedback changed the gate")
	}
}

// Contributions are the logit's parts: σ(Σ parts) is the score.
func TestContributions(t *testing.T) {
	g, _ := gate.New()
	r := rand.New(rand.NewPCG(1, 1))
	for range 200 {
		f := randomFeatures(r)
		g.Observe(f, float64(r.IntN(2)))
	}
	for range 50 {
		f := randomFeatures(r)
		var z float64
		for _, v := range g.Contributions(f) {
			z += v
		}
		if got, want := 1/(1+math.Exp(-z)), g.Score(f); math.Abs(got-want) > 1e-12 {
			t.Fatalf("σ(Σ contributions) = %v, Score = %v", got, want)
		}
	}
	if len(g.Weights()) != 20 {
		t.Fatalf("%d weights, want 20", len(g.Weights()))
	}
}

func randomFeatures(r *rand.Rand) engram.Features {
	return engram.Features{
		Relevance: r.Float64(), Recency: r.Float64(), Redundancy: r.Float64(),
		Tokens: r.IntN(500), Role: engram.Role(r.IntN(5)), Flags: engram.Flags(r.IntN(32)),
		Retrieved: r.IntN(20), AgeSteps: r.Int64N(100000), Surprise: 4*r.Float64() - 2,
	}
}

// Equal seeds and equal experience give equal gates, bit for bit; Fit's
// order depends on the seed.
func TestDeterminism(t *testing.T) {
	run := func(seed uint64) []byte {
		g, _ := gate.New(gate.WithSeed(seed))
		r := rand.New(rand.NewPCG(7, 7))
		var ex []gate.Example
		for range 500 {
			f := randomFeatures(r)
			y := 0.0
			if f.Relevance > 0.5 {
				y = 1
			}
			g.Observe(f, y)
			ex = append(ex, gate.Example{Features: f, Label: y})
		}
		g.Fit(ex, 2)
		b, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if !bytes.Equal(run(1), run(1)) {
		t.Fatal("same seed, different gates")
	}
	if bytes.Equal(run(1), run(2)) {
		t.Fatal("different seeds, same Fit order")
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	g, _ := gate.New(gate.WithSeed(5), gate.WithLearningRate(0.3))
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		g.Observe(randomFeatures(r), float64(r.IntN(2)))
	}
	data, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 4096 {
		t.Fatalf("serialised gate is %d bytes, want ≤ 4 KB", len(data))
	}
	t.Logf("serialised gate: %d bytes", len(data))
	var h gate.Gate // the zero Gate takes a saved state
	if err := h.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	// The copy scores alike and learns on alike.
	for range 100 {
		f := randomFeatures(r)
		if g.Score(f) != h.Score(f) {
			t.Fatal("loaded gate scores differently")
		}
		y := float64(r.IntN(2))
		g.Observe(f, y)
		h.Observe(f, y)
	}
	ex := []gate.Example{{Features: fact, Label: 1}, {Features: chatter, Label: 0}, {Features: randomFeatures(r), Label: 1}}
	g.Fit(ex, 3)
	h.Fit(ex, 3)
	a, _ := g.MarshalBinary()
	b, _ := h.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Fatal("loaded gate learned differently")
	}
}

func TestUnmarshalRejects(t *testing.T) {
	g, _ := gate.New()
	g.Observe(fact, 1)
	good, _ := g.MarshalBinary()
	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"magic", mutate(func(b []byte) []byte { b[0] = 'X'; return b })},
		{"version", mutate(func(b []byte) []byte { b[4] = 99; return b })},
		{"layout", mutate(func(b []byte) []byte { b[5] = 7; return b })},
		{"truncated", good[:len(good)/2]},
		{"checksum", mutate(func(b []byte) []byte { b[40] ^= 1; return b })},
		{"trailing", append(bytes.Clone(good), 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, _ := gate.New()
			h.Observe(chatter, 0)
			before, _ := h.MarshalBinary()
			if err := h.UnmarshalBinary(tt.data); !errors.Is(err, gate.ErrFormat) {
				t.Fatalf("UnmarshalBinary: %v, want ErrFormat", err)
			}
			if after, _ := h.MarshalBinary(); !bytes.Equal(before, after) {
				t.Fatal("a refused load changed the gate")
			}
		})
	}
}

// FuzzUnmarshal: no input panics, and what loads saves back the same.
func FuzzUnmarshal(f *testing.F) {
	g, _ := gate.New()
	g.Observe(fact, 1)
	good, _ := g.MarshalBinary()
	f.Add(good)
	f.Add([]byte("EGAT"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var h gate.Gate
		if h.UnmarshalBinary(data) != nil {
			return
		}
		out, err := h.MarshalBinary()
		if err != nil || !bytes.Equal(out, data) {
			t.Fatalf("round trip changed %d bytes to %d (%v)", len(data), len(out), err)
		}
	})
}

// Score never waits for learning; run with -race.
func TestConcurrent(t *testing.T) {
	g, _ := gate.New()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 0))
			for range 2000 {
				f := randomFeatures(r)
				switch w {
				case 0:
					g.Observe(f, float64(r.IntN(2)))
				case 1:
					g.Hindsight(f, 2*r.Float64()-1)
				case 2:
					if _, err := g.MarshalBinary(); err != nil {
						t.Error(err)
					}
				default:
					if s := g.Score(f); !(s > 0 && s < 1) {
						t.Errorf("score %v outside (0, 1)", s)
					}
					g.Contributions(f)
				}
			}
		}()
	}
	wg.Wait()
}
