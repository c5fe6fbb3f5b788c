package dataset

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Read decodes a LoCoMo JSON array. It accepts the quirks of published
// files (numeric or missing answers, adversarial_answer, extra fields,
// spaces inside evidence ids) and ignores unknown keys. Malformed input
// yields an error matching ErrFormat. Evidence ids that resolve to no turn
// are kept; see Sample.Evidence and Sample.Validate.
func Read(r io.Reader) ([]Sample, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("dataset: read: %w", err)
	}
	var samples []Sample
	if err := json.Unmarshal(data, &samples); err != nil {
		if errors.Is(err, ErrFormat) {
			return nil, err
		}
		return nil, fmt.Errorf("dataset: read: %w: %w", ErrFormat, err)
	}
	if samples == nil {
		return nil, fmt.Errorf("dataset: read: null instead of an array: %w", ErrFormat)
	}
	return samples, nil
}

// ReadFile reads a LoCoMo JSON file; see Read.
func ReadFile(path string) ([]Sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	return Read(f)
}

// Write encodes samples as an indented LoCoMo JSON array that Read returns
// unchanged. Conversation keys are written in replay order. A sample whose
// sessions or turns Read would reject yields ErrFormat and nothing is
// written.
func Write(w io.Writer, samples []Sample) error {
	if samples == nil {
		samples = []Sample{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(samples); err != nil {
		if errors.Is(err, ErrFormat) {
			return err
		}
		return fmt.Errorf("dataset: write: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("dataset: write: %w", err)
	}
	return nil
}

type turnJSON struct {
	Speaker string `json:"speaker"`
	DiaID   string `json:"dia_id"`
	Text    string `json:"text"`
	Noise   bool   `json:"noise,omitempty"`
}

type qaJSON struct {
	Question          string   `json:"question"`
	Answer            *scalar  `json:"answer,omitempty"`
	AdversarialAnswer *scalar  `json:"adversarial_answer,omitempty"`
	Evidence          []string `json:"evidence"`
	Category          Category `json:"category"`
}

type sampleJSON struct {
	ID           scalar          `json:"sample_id"`
	Conversation json.RawMessage `json:"conversation"`
	QA           []qaJSON        `json:"qa"`
}

// scalar accepts any JSON scalar and keeps its text: published files hold
// answers such as 2022 as numbers.
type scalar string

func (s *scalar) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return fmt.Errorf("dataset: empty value: %w", ErrFormat)
	case b[0] == '"':
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = scalar(v)
	case string(b) == "null":
		*s = ""
	case b[0] == '{' || b[0] == '[':
		return fmt.Errorf("dataset: want a scalar, got %.20s: %w", b, ErrFormat)
	default: // number or boolean, already validated by the decoder
		*s = scalar(b)
	}
	return nil
}

// UnmarshalJSON decodes one LoCoMo sample, collecting the numbered
// "session_N" and "session_N_date_time" keys into Sessions.
func (s *Sample) UnmarshalJSON(b []byte) error {
	var raw sampleJSON
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("dataset: sample: %w: %w", ErrFormat, err)
	}
	out := Sample{ID: string(raw.ID)}
	if err := out.decodeConversation(raw.Conversation); err != nil {
		return err
	}
	for _, q := range raw.QA {
		qa := QA{Question: q.Question, Category: q.Category, Evidence: normaliseEvidence(q.Evidence)}
		if q.Answer != nil {
			qa.Answer = string(*q.Answer)
		}
		if q.AdversarialAnswer != nil {
			qa.AdversarialAnswer = string(*q.AdversarialAnswer)
		}
		out.QA = append(out.QA, qa)
	}
	if err := out.checkShape(); err != nil {
		return err
	}
	*s = out
	return nil
}

func (s *Sample) decodeConversation(b json.RawMessage) error {
	if len(b) == 0 || string(b) == "null" {
		return fmt.Errorf("dataset: sample %q: no conversation: %w", s.ID, ErrFormat)
	}
	var conv map[string]json.RawMessage
	if err := json.Unmarshal(b, &conv); err != nil {
		return fmt.Errorf("dataset: sample %q: conversation: %w: %w", s.ID, ErrFormat, err)
	}
	// Sorted keys make the reported error independent of map order.
	keys := make([]string, 0, len(conv))
	for k := range conv {
		keys = append(keys, k)
	}
	slices.Sort(keys)

	byIndex := make(map[int]*Session)
	session := func(n int) *Session {
		if byIndex[n] == nil {
			byIndex[n] = &Session{Index: n}
		}
		return byIndex[n]
	}
	hasTurns := make(map[int]bool)
	for _, k := range keys {
		v := conv[k]
		var err error
		switch n, dated := sessionKey(k); {
		case k == "speaker_a":
			err = json.Unmarshal(v, &s.SpeakerA)
		case k == "speaker_b":
			err = json.Unmarshal(v, &s.SpeakerB)
		case n == 0:
			continue // unknown key
		case dated:
			err = json.Unmarshal(v, &session(n).DateTime)
		default:
			var turns []turnJSON
			err = json.Unmarshal(v, &turns)
			ss := session(n)
			for _, t := range turns {
				ss.Turns = append(ss.Turns, Turn(t))
			}
			hasTurns[n] = true
		}
		if err != nil {
			return fmt.Errorf("dataset: sample %q: %s: %w: %w", s.ID, k, ErrFormat, err)
		}
	}
	for n, ss := range byIndex {
		if hasTurns[n] || ss.DateTime != "" {
			s.Sessions = append(s.Sessions, *ss)
		}
	}
	slices.SortFunc(s.Sessions, func(a, b Session) int { return cmp.Compare(a.Index, b.Index) })
	return nil
}

// sessionKey parses "session_N" and "session_N_date_time". It returns
// n == 0 for any other key, including non-canonical numbers like "session_01".
func sessionKey(k string) (n int, dated bool) {
	rest, ok := strings.CutPrefix(k, "session_")
	if !ok {
		return 0, false
	}
	rest, dated = strings.CutSuffix(rest, "_date_time")
	n, err := strconv.Atoi(rest)
	if err != nil || n < 1 || strconv.Itoa(n) != rest {
		return 0, false
	}
	return n, dated
}

// normaliseEvidence removes whitespace inside ids and splits entries that
// hold several ids separated by ';' or ','.
func normaliseEvidence(ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, e := range ids {
		for part := range strings.FieldsFuncSeq(e, func(r rune) bool { return r == ';' || r == ',' }) {
			id := strings.Join(strings.Fields(part), "")
			if id != "" {
				out = append(out, id)
			}
		}
	}
	return out
}

// MarshalJSON encodes s in the LoCoMo layout, sessions in Index order.
func (s Sample) MarshalJSON() ([]byte, error) {
	if err := s.checkShape(); err != nil {
		return nil, err
	}
	sessions := slices.SortedFunc(slices.Values(s.Sessions), func(a, b Session) int { return cmp.Compare(a.Index, b.Index) })

	var b bytes.Buffer
	b.WriteString(`{"sample_id":`)
	writeJSON(&b, s.ID)
	b.WriteString(`,"conversation":{"speaker_a":`)
	writeJSON(&b, s.SpeakerA)
	b.WriteString(`,"speaker_b":`)
	writeJSON(&b, s.SpeakerB)
	for _, ss := range sessions {
		key := "session_" + strconv.Itoa(ss.Index)
		fmt.Fprintf(&b, `,%q:`, key+"_date_time")
		writeJSON(&b, ss.DateTime)
		fmt.Fprintf(&b, `,%q:`, key)
		turns := make([]turnJSON, len(ss.Turns))
		for i, t := range ss.Turns {
			turns[i] = turnJSON(t)
		}
		writeJSON(&b, turns)
	}
	b.WriteString(`},"qa":`)
	qas := make([]qaJSON, len(s.QA))
	for i, q := range s.QA {
		qj := qaJSON{Question: q.Question, Evidence: q.Evidence, Category: q.Category}
		if qj.Evidence == nil {
			qj.Evidence = []string{}
		}
		if q.Answer != "" || q.AdversarialAnswer == "" {
			a := scalar(q.Answer)
			qj.Answer = &a
		}
		if q.AdversarialAnswer != "" {
			a := scalar(q.AdversarialAnswer)
			qj.AdversarialAnswer = &a
		}
		qas[i] = qj
	}
	writeJSON(&b, qas)
	b.WriteByte('}')
	return b.Bytes(), nil
}

// writeJSON encodes v without HTML escaping, so texts stay readable.
func writeJSON(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)       // strings, turns and QAs always encode
	b.Truncate(b.Len() - 1) // Encode appends a newline
}
