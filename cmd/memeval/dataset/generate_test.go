package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func generate(t testing.TB, cfg GenConfig) []Sample {
	t.Helper()
	s, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func encode(t testing.TB, s []Sample) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, s); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGenerateDeterministic(t *testing.T) {
	cfg := DefaultGenConfig()
	cfg.Samples = 3
	a := encode(t, generate(t, cfg))
	b := encode(t, generate(t, cfg))
	if !bytes.Equal(a, b) {
		t.Fatal("same seed gave different bytes")
	}
	cfg.Seed++
	if c := encode(t, generate(t, cfg)); bytes.Equal(a, c) {
		t.Fatal("different seeds gave the same bytes")
	}
	// Sample i depends only on the seed and i.
	cfg.Seed--
	cfg.Samples = 1
	one := generate(t, cfg)
	all := generate(t, DefaultGenConfig())
	if !bytes.Equal(encode(t, one), encode(t, all[:1])) {
		t.Fatal("sample 0 depends on the number of samples")
	}
}

func TestGenerateInvalidConfig(t *testing.T) {
	tests := []struct {
		name string
		edit func(*GenConfig)
	}{
		{"no samples", func(c *GenConfig) { c.Samples = 0 }},
		{"no sessions", func(c *GenConfig) { c.Sessions = 0 }},
		{"one turn", func(c *GenConfig) { c.TurnsPerSession = 1 }},
		{"all noise", func(c *GenConfig) { c.NoiseRatio = 1 }},
		{"negative noise", func(c *GenConfig) { c.NoiseRatio = -0.1 }},
		{"negative questions", func(c *GenConfig) { c.QuestionsPerSample = -1 }},
		{"negative paraphrase", func(c *GenConfig) { c.Paraphrase = -0.1 }},
		{"paraphrase over 1", func(c *GenConfig) { c.Paraphrase = 1.5 }},
		{"paraphrase NaN", func(c *GenConfig) { c.Paraphrase = math.NaN() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultGenConfig()
			tt.edit(&cfg)
			if _, err := Generate(cfg); !errors.Is(err, ErrInvalidConfig) {
				t.Fatalf("err = %v, want ErrInvalidConfig", err)
			}
		})
	}
}

// TestGenerateInvariants checks every sample of several configurations.
func TestGenerateInvariants(t *testing.T) {
	small := GenConfig{Seed: 7, Samples: 3, Sessions: 3, TurnsPerSession: 6, NoiseRatio: 0.5, QuestionsPerSample: 20}
	noisy := DefaultGenConfig()
	noisy.NoiseRatio, noisy.Samples = 0.75, 4
	quiet := DefaultGenConfig()
	quiet.NoiseRatio, quiet.Samples = 0, 2
	def := DefaultGenConfig()
	tests := []struct {
		name        string
		cfg         GenConfig
		fullSize    bool // check the default-size targets too
		wantAllCats bool
	}{
		{"default", def, true, true},
		{"noise 0.75", noisy, true, true},
		{"no noise", quiet, false, true},
		{"small", small, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, s := range generate(t, tt.cfg) {
				checkSample(t, &s, tt.cfg, tt.fullSize, tt.wantAllCats)
			}
		})
	}
}

func checkSample(t *testing.T, s *Sample, cfg GenConfig, fullSize, wantAllCats bool) {
	t.Helper()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.SpeakerA == s.SpeakerB {
		t.Errorf("%s: both speakers are %s", s.ID, s.SpeakerA)
	}
	turns := s.Turns()
	noise, words := 0, 0
	for _, tr := range turns {
		if tr.Noise {
			noise++
		}
		words += len(strings.Fields(tr.Text))
		if tr.Speaker != s.SpeakerA && tr.Speaker != s.SpeakerB {
			t.Errorf("%s: %s spoken by %q", s.ID, tr.DiaID, tr.Speaker)
		}
	}
	if got := float64(noise) / float64(len(turns)); got < cfg.NoiseRatio-0.05 || got > cfg.NoiseRatio+0.05 {
		t.Errorf("%s: noise ratio %.3f, want %.2f±0.05", s.ID, got, cfg.NoiseRatio)
	}
	if fullSize {
		// Four words make about five cl100k tokens here; the replay's
		// "Human: Speaker: " prefixes add a sixth, for about 20k in all.
		if tokens := words * 5 / 4; tokens < 15000 || tokens > 20000 {
			t.Errorf("%s: ~%d tokens of text, want 15k..20k", s.ID, tokens)
		}
		if n := len(s.Sessions); n < 15 || n > 25 {
			t.Errorf("%s: %d sessions", s.ID, n)
		}
		if len(s.QA) != cfg.QuestionsPerSample {
			t.Errorf("%s: %d questions, want %d", s.ID, len(s.QA), cfg.QuestionsPerSample)
		}
	}

	cats := make(map[Category]int)
	for _, q := range s.QA {
		cats[q.Category]++
		ev := s.Evidence(q)
		var text strings.Builder
		for _, tr := range ev {
			if tr.Noise {
				t.Errorf("%s: %q cites noise turn %s", s.ID, q.Question, tr.DiaID)
			}
			text.WriteString(tr.Text + " ")
		}
		switch q.Category {
		case SingleHop, MultiHop:
			if len(ev) == 0 || !strings.Contains(text.String(), q.Answer) && !allIn(q.Answer, text.String()) {
				t.Errorf("%s: %q: answer %q not in evidence %q", s.ID, q.Question, q.Answer, text.String())
			}
		case Temporal:
			if len(ev) != 1 || !strings.ContainsAny(q.Answer, "0123456789") {
				t.Errorf("%s: %q: temporal answer %q, evidence %v", s.ID, q.Question, q.Answer, q.Evidence)
			}
		case OpenDomain:
			if len(ev) != 1 {
				t.Errorf("%s: %q: evidence %v", s.ID, q.Question, q.Evidence)
			}
		case Adversarial:
			if q.AdversarialAnswer != "" && !strings.Contains(text.String(), q.AdversarialAnswer) {
				t.Errorf("%s: %q: misleading answer %q not in %q", s.ID, q.Question, q.AdversarialAnswer, text.String())
			}
		}
	}
	if wantAllCats {
		for c := MultiHop; c <= Adversarial; c++ {
			if cats[c] == 0 {
				t.Errorf("%s: no %v questions (%v)", s.ID, c, cats)
			}
		}
	}
}

// allIn reports whether each part of a multi-hop "X and Y" answer occurs.
func allIn(answer, text string) bool {
	for part := range strings.SplitSeq(answer, " and ") {
		if !strings.Contains(text, part) {
			return false
		}
	}
	return true
}

// TestAnswersStayOutOfNoise checks that filler never holds an attribute a
// question asks for, so keeping noise cannot earn recall by accident. Names
// of people and pets are allowed there: distractors use them on purpose.
func TestAnswersStayOutOfNoise(t *testing.T) {
	names := slices.Concat(femaleNames, maleNames, petNames)
	for _, s := range generate(t, DefaultGenConfig()) {
		var noise strings.Builder
		for _, tr := range s.Turns() {
			if tr.Noise {
				noise.WriteString(" " + strings.Join(contentWords(tr.Text), " ") + " ")
			}
		}
		for _, q := range s.QA {
			if q.Category != SingleHop || slices.Contains(names, q.Answer) {
				continue
			}
			if strings.Contains(noise.String(), " "+strings.Join(contentWords(q.Answer), " ")+" ") {
				t.Errorf("%s: answer %q to %q occurs in a noise turn", s.ID, q.Answer, q.Question)
			}
		}
	}
}

var stopwords = strings.Fields(`a an the and or but of to in on at for with from by as is are was were be been
being do does did has have had what which who whom whose when where why how would could should can will
i me my we our you your he him his she her they them their it its this that these those there here than then
so not no now just really very about into over up out some any all one much many most more`)

func contentWords(s string) []string {
	var out []string
	for w := range strings.FieldsFuncSeq(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '$' && r != '\''
	}) {
		w = strings.TrimSuffix(strings.Trim(w, "'"), "'s")
		if len(w) > 1 && !slices.Contains(stopwords, w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

func jaccard(a, b []string) float64 {
	inter := 0
	for _, w := range a {
		if slices.Contains(b, w) {
			inter++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// overlap is what questions share with their evidence over a set.
type overlap struct {
	meanJaccard float64 // content words of question and evidence
	shared      float64 // share of questions with a content word in common
	keywordTop1 float64 // share whose best keyword-matching turn is evidence
}

// measureOverlap scores the non-adversarial questions of samples. The
// keyword ranking scores every turn by the question's content words it
// holds, breaking ties in favour of the evidence, as the most generous
// keyword retriever would.
func measureOverlap(samples []Sample) overlap {
	var sum float64
	var n, zero, hits int
	for _, s := range samples {
		turns := s.Turns()
		words := make([][]string, len(turns))
		for i, tr := range turns {
			words[i] = contentWords(tr.Text)
		}
		for _, q := range s.QA {
			ev := s.Evidence(q)
			if q.Category == Adversarial || len(ev) == 0 {
				continue
			}
			var text strings.Builder
			for _, tr := range ev {
				text.WriteString(tr.Text + " ")
			}
			qw := contentWords(q.Question)
			j := jaccard(qw, contentWords(text.String()))
			sum += j
			n++
			if j == 0 {
				zero++
			}
			best, bestIsEvidence := -1, false
			for i, tr := range turns {
				score := 0
				for _, w := range qw {
					if slices.Contains(words[i], w) {
						score++
					}
				}
				isEv := slices.Contains(q.Evidence, tr.DiaID)
				if score > best || score == best && isEv {
					best, bestIsEvidence = score, isEv
				}
			}
			if bestIsEvidence && best > 0 {
				hits++
			}
		}
	}
	return overlap{sum / float64(n), 1 - float64(zero)/float64(n), float64(hits) / float64(n)}
}

// TestParaphraseOverlap checks what the Paraphrase knob does to the words
// a question shares with its evidence. A question has about four content
// words and its evidence turn about fifteen, so one shared word gives a
// Jaccard near 0.05 and two near 0.12.
//
// At Paraphrase 1, the hard setting, a mean below 0.06 means a typical
// question shares at most one content word with its evidence (a name, a
// city), so finding it takes more than keyword matching: the best keyword
// match is evidence for under half the questions. The floor on questions
// sharing some word keeps even that set from being pure paraphrase.
//
// At the default, half the questions echo one or two key words of their
// evidence, as many LoCoMo questions do: the mean Jaccard is at least
// 0.08 and most questions share a word. Distractors must still keep the
// best keyword match from being evidence for three questions in four.
func TestParaphraseOverlap(t *testing.T) {
	def := DefaultGenConfig()
	hard := def
	hard.Paraphrase = 1
	tests := []struct {
		name                 string
		cfg                  GenConfig
		minMean, maxMean     float64
		minShared, maxShared float64
		maxTop1              float64
	}{
		{"hard", hard, 0, 0.06, 0.2, 0.6, 0.5},
		{"default", def, 0.08, 0.14, 0.6, 0.9, 0.75},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := measureOverlap(generate(t, tt.cfg))
			t.Logf("Paraphrase %.2f: mean content-word Jaccard %.3f, %.0f%% share a content word, keyword top-1 finds evidence for %.0f%%",
				tt.cfg.Paraphrase, o.meanJaccard, 100*o.shared, 100*o.keywordTop1)
			if o.meanJaccard < tt.minMean || o.meanJaccard >= tt.maxMean {
				t.Errorf("mean Jaccard %.3f outside [%.2f, %.2f)", o.meanJaccard, tt.minMean, tt.maxMean)
			}
			if o.shared < tt.minShared || o.shared > tt.maxShared {
				t.Errorf("%.2f of questions share a word with their evidence, want %.2f..%.2f", o.shared, tt.minShared, tt.maxShared)
			}
			if o.keywordTop1 >= tt.maxTop1 {
				t.Errorf("keyword top-1 hit rate %.2f >= %.2f", o.keywordTop1, tt.maxTop1)
			}
		})
	}
}

// TestParaphraseMonotone checks that more paraphrase means less overlap.
func TestParaphraseMonotone(t *testing.T) {
	cfg := DefaultGenConfig()
	cfg.Samples = 4
	prev := math.Inf(1)
	for _, p := range []float64{0, 0.5, 1} {
		cfg.Paraphrase = p
		o := measureOverlap(generate(t, cfg))
		if o.meanJaccard >= prev {
			t.Errorf("Paraphrase %.1f: mean Jaccard %.3f, not below %.3f", p, o.meanJaccard, prev)
		}
		prev = o.meanJaccard
	}
}

// TestQuestionsHideAnswers checks that no question, echo or not, holds its
// own answer.
func TestQuestionsHideAnswers(t *testing.T) {
	cfg := DefaultGenConfig()
	cfg.Paraphrase = 0
	for _, s := range generate(t, cfg) {
		for _, q := range s.QA {
			if q.Category != SingleHop && q.Category != MultiHop {
				continue
			}
			for part := range strings.SplitSeq(q.Answer, " and ") {
				if strings.Contains(strings.ToLower(q.Question), strings.ToLower(part)) {
					t.Errorf("%s: %q holds its answer %q", s.ID, q.Question, q.Answer)
				}
			}
		}
	}
}

// TestEvidenceSpread checks that asked facts come from the whole
// conversation, as in LoCoMo, where the newest fifth holds about a fifth
// of the evidence: each third of the turns holds at least a fifth of it.
func TestEvidenceSpread(t *testing.T) {
	var thirds [3]int
	for _, s := range generate(t, DefaultGenConfig()) {
		turns := s.Turns()
		at := make(map[string]int, len(turns))
		for i, tr := range turns {
			at[tr.DiaID] = i
		}
		for _, q := range s.QA {
			if q.Category == Adversarial {
				continue
			}
			for _, id := range q.Evidence {
				thirds[3*at[id]/len(turns)]++
			}
		}
	}
	total := thirds[0] + thirds[1] + thirds[2]
	t.Logf("evidence by third of the conversation: %v", thirds)
	for i, n := range thirds {
		if float64(n) < 0.2*float64(total) {
			t.Errorf("third %d holds %d of %d evidence turns", i+1, n, total)
		}
	}
}

func TestGenerateSessionDates(t *testing.T) {
	for _, s := range generate(t, DefaultGenConfig())[:2] {
		prev := ""
		for _, ss := range s.Sessions {
			if ss.DateTime == prev || !strings.Contains(ss.DateTime, " on ") {
				t.Errorf("%s: session %d date %q after %q", s.ID, ss.Index, ss.DateTime, prev)
			}
			prev = ss.DateTime
		}
	}
}

func BenchmarkGenerate(b *testing.B) {
	for _, samples := range []int{1, 10} {
		cfg := DefaultGenConfig()
		cfg.Samples = samples
		b.Run(fmt.Sprintf("samples=%d", samples), func(b *testing.B) {
			for b.Loop() {
				if _, err := Generate(cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
