package langchaingo

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/engram-go/engram"
	"github.com/tmc/langchaingo/llms"
)

// stubModel answers every call with reply (or err) and records each call's
// messages and resolved options. It is safe for concurrent use.
type stubModel struct {
	reply func(human string) string
	err   error

	mu    sync.Mutex
	calls []stubCall
}

type stubCall struct {
	system, human string
	opts          llms.CallOptions
}

var _ llms.Model = (*stubModel)(nil)

func (m *stubModel) GenerateContent(_ context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	c := stubCall{opts: llms.CallOptions{Temperature: -1}}
	for _, o := range opts {
		o(&c.opts)
	}
	for _, msg := range msgs {
		for _, p := range msg.Parts {
			if tp, ok := p.(llms.TextContent); ok {
				switch msg.Role {
				case llms.ChatMessageTypeSystem:
					c.system += tp.Text
				default:
					c.human += tp.Text
				}
			}
		}
	}
	m.mu.Lock()
	m.calls = append(m.calls, c)
	m.mu.Unlock()
	if m.err != nil {
		return nil, m.err
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: m.reply(c.human)}}}, nil
}

func (m *stubModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

func (m *stubModel) recorded() []stubCall {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]stubCall(nil), m.calls...)
}

func replying(s string) *stubModel {
	return &stubModel{reply: func(string) string { return s }}
}

func newExtractor(t *testing.T, m llms.Model, opts ...FactOption) engram.FactExtractor {
	t.Helper()
	x, err := FactExtractor(m, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestFactExtractorPrompt(t *testing.T) {
	m := replying("Omar | home city | Edinburgh")
	x := newExtractor(t, m)
	known := []engram.Fact{
		{Subject: "Omar", Relation: "home city", Value: "Lisbon"},
		{Subject: "user", Relation: "employer", Value: "Acme | Co\nLtd"},
		{Subject: "", Relation: "pet", Value: "cat"}, // invalid: not shown
	}
	u := engram.Unit{Role: engram.RoleHuman, Text: "Omar: we moved to Edinburgh last month."}
	got, err := x(context.Background(), u, known)
	if err != nil {
		t.Fatal(err)
	}
	if want := []engram.Fact{{Subject: "Omar", Relation: "home city", Value: "Edinburgh"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("facts %+v, want %+v", got, want)
	}
	calls := m.recorded()
	if len(calls) != 1 {
		t.Fatalf("%d calls, want 1", len(calls))
	}
	c := calls[0]
	if c.system != DefaultFactPrompt {
		t.Errorf("system message %q, want DefaultFactPrompt", c.system)
	}
	if c.opts.Temperature != 0 {
		t.Errorf("temperature %v, want 0", c.opts.Temperature)
	}
	for _, want := range []string{
		"Omar | home city | Lisbon\nuser | employer | Acme / Co Ltd\n",
		"Speaker: user\n",
		u.Text,
	} {
		if !strings.Contains(c.human, want) {
			t.Errorf("prompt lacks %q:\n%s", want, c.human)
		}
	}
	if strings.Contains(c.human, "| pet |") {
		t.Errorf("prompt shows an invalid known fact:\n%s", c.human)
	}
	if strings.Index(c.human, "Lisbon") > strings.Index(c.human, "Acme") {
		t.Errorf("known facts reordered:\n%s", c.human)
	}
}

func TestFactExtractorSpeaker(t *testing.T) {
	tests := []struct {
		role engram.Role
		want string
	}{
		{engram.RoleHuman, "Speaker: user\n"},
		{engram.RoleAI, "Speaker: assistant\n"},
		{engram.RoleSystem, "Speaker: system\n"},
		{engram.RoleToolResult, "Speaker: tool\n"},
	}
	for _, tt := range tests {
		t.Run(tt.role.String(), func(t *testing.T) {
			m := replying("NONE")
			x := newExtractor(t, m)
			if _, err := x(context.Background(), engram.Unit{Role: tt.role, Text: "I live in Porto."}, nil); err != nil {
				t.Fatal(err)
			}
			h := m.recorded()[0].human
			if !strings.Contains(h, tt.want) || !strings.Contains(h, "Known facts: none\n") {
				t.Errorf("prompt lacks %q or the empty table:\n%s", tt.want, h)
			}
		})
	}
}

func TestFactExtractorKnownCapped(t *testing.T) {
	m := replying("NONE")
	x := newExtractor(t, m)
	known := make([]engram.Fact, engram.MaxKnownFacts+10)
	for i := range known {
		known[i] = engram.Fact{Subject: fmt.Sprintf("s%d", i), Relation: "r", Value: "v"}
	}
	if _, err := x(context.Background(), engram.Unit{Text: "hello"}, known); err != nil {
		t.Fatal(err)
	}
	h := m.recorded()[0].human
	if n := strings.Count(h, " | r | v\n"); n != engram.MaxKnownFacts {
		t.Errorf("%d known facts in the prompt, want %d", n, engram.MaxKnownFacts)
	}
}

func TestFactExtractorNone(t *testing.T) {
	for _, reply := range []string{"NONE", "none.", "  NONE\n", "`NONE`", "", "There are no durable facts here."} {
		got, err := newExtractor(t, replying(reply))(context.Background(), engram.Unit{Text: "Tell me a joke."}, nil)
		if err != nil || len(got) != 0 {
			t.Errorf("reply %q: facts %+v, err %v; want none", reply, got, err)
		}
	}
}

func TestFactExtractorBlankText(t *testing.T) {
	m := replying("Omar | home city | Edinburgh")
	got, err := newExtractor(t, m)(context.Background(), engram.Unit{Text: " \n\t"}, nil)
	if err != nil || got != nil {
		t.Fatalf("facts %+v, err %v; want none", got, err)
	}
	if n := len(m.recorded()); n != 0 {
		t.Errorf("model called %d times for a blank unit", n)
	}
}

func TestFactExtractorModelError(t *testing.T) {
	boom := errors.New("rate limited")
	_, err := newExtractor(t, &stubModel{err: boom})(context.Background(), engram.Unit{Text: "I live in Porto."}, nil)
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "langchaingo: extract facts: ") {
		t.Fatalf("err %v, want %v wrapped as extract facts", err, boom)
	}
	_, err = newExtractor(t, noChoice{})(context.Background(), engram.Unit{Text: "I live in Porto."}, nil)
	if err == nil {
		t.Fatal("no error for a response without choices")
	}
}

// noChoice answers with an empty response.
type noChoice struct{}

func (noChoice) GenerateContent(context.Context, []llms.MessageContent, ...llms.CallOption) (*llms.ContentResponse, error) {
	return &llms.ContentResponse{}, nil
}

func (noChoice) Call(context.Context, string, ...llms.CallOption) (string, error) { return "", nil }

func TestFactExtractorOptions(t *testing.T) {
	if _, err := FactExtractor(nil); !errors.Is(err, engram.ErrInvalidOption) {
		t.Errorf("nil model: err %v, want ErrInvalidOption", err)
	}
	for _, n := range []int{0, -1} {
		if _, err := FactExtractor(replying("NONE"), WithMaxFacts(n)); !errors.Is(err, engram.ErrInvalidOption) {
			t.Errorf("WithMaxFacts(%d): err %v, want ErrInvalidOption", n, err)
		}
	}

	m := replying("a | r | 1\nb | r | 2\nc | r | 3")
	got, err := newExtractor(t, m, WithMaxFacts(2))(context.Background(), engram.Unit{Text: "x"}, nil)
	if err != nil || len(got) != 2 || got[1].Subject != "b" {
		t.Errorf("WithMaxFacts(2): facts %+v, err %v; want a and b", got, err)
	}

	custom := DefaultFactPrompt + "\nAlso record allergies."
	if _, err := newExtractor(t, m, WithFactPrompt(custom))(context.Background(), engram.Unit{Text: "x"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := newExtractor(t, m, WithFactPrompt(""))(context.Background(), engram.Unit{Text: "x"}, nil); err != nil {
		t.Fatal(err)
	}
	calls := m.recorded()
	if calls[1].system != custom || calls[2].system != DefaultFactPrompt {
		t.Errorf("system messages %q and %q, want the custom prompt then the default", calls[1].system, calls[2].system)
	}
}

func TestParseFacts(t *testing.T) {
	omar := engram.Fact{Subject: "Omar", Relation: "home city", Value: "Edinburgh"}
	leah := engram.Fact{Subject: "Leah", Relation: "employer", Value: "Acme"}
	tests := []struct {
		name, reply string
		want        []engram.Fact
	}{
		{"plain", "Omar | home city | Edinburgh\nLeah | employer | Acme", []engram.Fact{omar, leah}},
		{"spaces and CRLF", "  Omar|  home city |Edinburgh  \r\n\r\n Leah | employer | Acme\r\n", []engram.Fact{omar, leah}},
		{"bullets", "- Omar | home city | Edinburgh\n* Leah | employer | Acme", []engram.Fact{omar, leah}},
		{"numbers", "1. Omar | home city | Edinburgh\n2) Leah | employer | Acme", []engram.Fact{omar, leah}},
		{"quotes", "\"Omar | home city | Edinburgh\"\n`Leah` | 'employer' | “Acme”", []engram.Fact{omar, leah}},
		{"bold", "**Omar** | home city | **Edinburgh**", []engram.Fact{omar}},
		{"fence", "```\nOmar | home city | Edinburgh\n```", []engram.Fact{omar}},
		{"fence with language", "```text\nOmar | home city | Edinburgh\n```\n", []engram.Fact{omar}},
		{"header", "Subject | Relation | Value\nOmar | home city | Edinburgh", []engram.Fact{omar}},
		{"preamble", "Here are the facts:\nOmar | home city | Edinburgh", []engram.Fact{omar}},
		{"markdown table", "| Subject | Relation | Value |\n|---|---|---|\n| Omar | home city | Edinburgh |", []engram.Fact{omar}},
		{"too few fields", "Omar | Edinburgh\nOmar | home city | Edinburgh", []engram.Fact{omar}},
		{"too many fields", "Omar | home | city | Edinburgh", nil},
		{"empty field", "Omar |  | Edinburgh\n | home city | Edinburgh\nOmar | home city | ", nil},
		{"punctuation field", "Omar | -- | Edinburgh", nil},
		{"none after facts", "Omar | home city | Edinburgh\nNONE", []engram.Fact{omar}},
		{"repeat", "Omar | home city | Edinburgh\nomar | Home City | edinburgh.", []engram.Fact{omar}},
		{"two values", "Omar | pet | cat\nOmar | pet | dog", []engram.Fact{{Subject: "Omar", Relation: "pet", Value: "cat"}, {Subject: "Omar", Relation: "pet", Value: "dog"}}},
		{"apostrophe kept", "Omar's sister Leah | employer | Acme", []engram.Fact{{Subject: "Omar's sister Leah", Relation: "employer", Value: "Acme"}}},
		{"number value", "user | phone | 555-0118", []engram.Fact{{Subject: "user", Relation: "phone", Value: "555-0118"}}},
		{"none", "NONE", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseFacts(tt.reply, DefaultMaxFacts); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseFacts(%q) = %+v, want %+v", tt.reply, got, tt.want)
			}
		})
	}
}

func TestParseFactsCaps(t *testing.T) {
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "s%d | r | v\n", i)
	}
	if got := parseFacts(b.String(), DefaultMaxFacts); len(got) != DefaultMaxFacts {
		t.Errorf("%d facts, want %d", len(got), DefaultMaxFacts)
	}
	long := strings.Repeat("é", 500)
	got := parseFacts("Omar | notes | "+long, DefaultMaxFacts)
	if len(got) != 1 || utf8.RuneCountInString(got[0].Value) != maxFactRunes {
		t.Fatalf("facts %+v, want one with a value of %d runes", got, maxFactRunes)
	}
}

func TestFactExtractorConcurrent(t *testing.T) {
	// The reply echoes the message, so each caller can check it got its own.
	m := &stubModel{reply: func(human string) string {
		_, msg, _ := strings.Cut(human, "Message:\n")
		return "user | home city | " + msg
	}}
	x := newExtractor(t, m)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := range 32 {
		wg.Go(func() {
			city := fmt.Sprintf("City%d", i)
			known := []engram.Fact{{Subject: "user", Relation: "home city", Value: "Lisbon"}}
			got, err := x(context.Background(), engram.Unit{Text: city}, known)
			if err == nil && (len(got) != 1 || got[0].Value != city) {
				err = fmt.Errorf("facts %+v, want %s", got, city)
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := len(m.recorded()); n != 32 {
		t.Errorf("%d calls, want 32", n)
	}
}

func FuzzParseFacts(f *testing.F) {
	for _, s := range []string{
		"Omar | home city | Edinburgh",
		"```\n- 1. \"a | b | c\"\n```",
		"| Subject | Relation | Value |\n|---|---|---|\n| x | y | z |",
		"NONE",
		"a||b|c\n|\n||\n|||",
		"\xff | \xfe | \xfd",
		strings.Repeat("é", 300) + " | r | v",
	} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, reply string, limit int) {
		limit = 1 + (limit%16+16)%16
		got := parseFacts(reply, limit)
		if len(got) > limit {
			t.Fatalf("%d facts, limit %d", len(got), limit)
		}
		for _, g := range got {
			if !g.Valid() {
				t.Fatalf("invalid fact %+v", g)
			}
			for _, s := range []string{g.Subject, g.Relation, g.Value} {
				if !utf8.ValidString(s) || utf8.RuneCountInString(s) > maxFactRunes ||
					strings.ContainsAny(s, "|\r\n") || s != strings.TrimSpace(s) {
					t.Fatalf("bad field %q in %+v", s, g)
				}
			}
		}
	})
}
