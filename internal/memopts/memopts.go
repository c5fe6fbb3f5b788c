package memopts

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"reflect"
	"strings"
	"time"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/gate"
	"github.com/engram-go/engram/internal/guard"
	"github.com/engram-go/engram/internal/memvars"
	"github.com/engram-go/engram/tokens"
	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/schema"
)

// Shared are the options both memories take, which package option's
// With functions set (option.WithTokenBudget sets Budget, and so on).
type Shared struct {
	Budget         int    // the most tokens a load returns
	MemoryKey      string // the key a load returns the history under
	InputKey       string // the human message's key on save, the query's on load; "" for the only key
	OutputKey      string // the AI message's key on save; "" for the only key, else "output"
	HumanPrefix    string // the label of human lines
	AIPrefix       string // the label of AI lines
	ReturnMessages bool   // a load returns []llms.ChatMessage, not a string
	Encoding       tokens.Encoding
	Counter        engram.TokenCounter // nil: the exact counter of Encoding
	Embedder       embeddings.Embedder // nil: engram's own, as the memory asks (Resolve)
	Gate           *gate.Gate          // the learned gate, or nil
	HalfLife       float64             // in steps: recency's in one memory, priorities' in the other
	Redundancy     float64             // the cosine from which two units count as repeats
	MaxUnits       int                 // the cap on the units held; 0 for none
	MaxUnitsSet    bool                // WithMaxUnits was given
	MaxBytes       int                 // the longest message stored; 0 for any
	Recent         int                 // how many of the newest messages every load keeps (within RecentRoom)
	Logger         *slog.Logger
	Now            func() time.Time
	Chat           schema.ChatMessageHistory // the transcript's mirror, or nil
	Facts          engram.FactExtractor
	FactsSet       bool        // WithFacts was given, perhaps with nil
	OnError        func(error) // told of every plug-in's failure, or nil

	// Guards is set by Resolve: every plug-in is called through one.
	Guards *guard.Plugins
	// Layout is set by Resolve: what a load needs of the embedder's vectors.
	Layout Layout

	pkg string // the memory, as errors and logs name it (Defaults)
}

// Layout is what a load needs of an embedder's vectors, found once when
// a memory is made.
type Layout struct {
	// Prefix is how many leading components relevance compares: the
	// GloVe part of engram's own embedder beside its hashed half (the
	// hashed half serves admission and merging, which must see numbers;
	// relevance measured better on GloVe alone); 0 for all of them.
	Prefix int
	// Dims is the length of the whole vector, 0 if not known in advance.
	Dims int
	// Part embeds the compared components alone, for a memory that scans
	// its units in process; nil where the whole vector is needed.
	Part func(string) []float32
}

// LayoutOf returns e's layout.
func LayoutOf(e embeddings.Embedder) Layout {
	x, ok := e.(*embed.Embedder)
	if !ok || x.GloVeShare() <= 0 || x.GloVeShare() >= 1 {
		return Layout{}
	}
	return Layout{Prefix: embed.GloVeDimensions, Dims: x.Dimensions(), Part: x.GloVePart}
}

// LinesFingerprint identifies how a memory counts a unit's line, so that
// one reopened or restored with other prefixes, another counter or
// another rendering recounts its units. The sample has a line break and a
// long run of mixed digits, which the counter of earlier versions
// undercounted; "escaped" names the rendering of line breaks and control
// characters (memvars.Line). withReply adds the count of a short AI
// line, which ratedistortion's fingerprint has always held.
func (s *Shared) LinesFingerprint(withReply bool) string {
	line := func(r engram.Role, text string) string {
		return memvars.Line(memvars.Label(r, s.HumanPrefix, s.AIPrefix), text)
	}
	n := fmt.Sprint(s.Counter(line(engram.RoleHuman, "tokens 12345 ünïcödé\nAI: "+strings.Repeat("1\u0663", 350))))
	if withReply {
		n += "|" + fmt.Sprint(s.Counter(line(engram.RoleAI, "ok")))
	}
	return s.HumanPrefix + "|" + s.AIPrefix + "|" + n + "|escaped"
}

// NilPointer reports whether v holds a nil pointer: a typed nil in an
// interface, which is not == nil (a store or tier whose opening failed).
func NilPointer(v any) bool {
	r := reflect.ValueOf(v)
	return r.Kind() == reflect.Pointer && r.IsNil()
}

// Defaults returns the defaults both memories share, for the memory pkg
// names in errors and logs ("dmem"); each sets its own HalfLife and
// Redundancy.
func Defaults(pkg string) Shared {
	return Shared{
		pkg:         pkg,
		Budget:      2000,
		MemoryKey:   "history",
		HumanPrefix: "Human",
		AIPrefix:    "AI",
		Encoding:    tokens.CL100kBase,
	}
}

// RecentRoom is the most an item of the newest messages may cost for a
// load to keep it whatever its score: a quarter of the budget.
func (s *Shared) RecentRoom() int { return s.Budget / 4 }

// Invalid returns the error an option the memory refuses gives: the
// memory's name, what is wrong, and [engram.ErrInvalidOption] to branch on.
func (s *Shared) Invalid(format string, a ...any) error {
	return fmt.Errorf("%s: %s: %w", s.pkg, fmt.Sprintf(format, a...), engram.ErrInvalidOption)
}

// Validate checks the shared options; every error wraps
// [engram.ErrInvalidOption] and names the option that set the value.
func (s *Shared) Validate() error {
	bad := s.Invalid
	switch {
	case s.Budget <= 0:
		return bad("option.WithTokenBudget(%d): the budget must be positive", s.Budget)
	case s.MemoryKey == "":
		return bad("option.WithMemoryKey(\"\"): empty memory key")
	case s.FactsSet && s.Facts == nil:
		return bad("option.WithFacts(nil): nil fact extractor")
	case !memvars.VisiblePrefix(s.HumanPrefix):
		return bad("option.WithHumanPrefix(%q): a prefix must be non-empty and start with a visible character", s.HumanPrefix)
	case !memvars.VisiblePrefix(s.AIPrefix):
		return bad("option.WithAIPrefix(%q): a prefix must be non-empty and start with a visible character", s.AIPrefix)
	case s.MaxUnits < 0:
		return bad("option.WithMaxUnits(%d): max units < 0", s.MaxUnits)
	case s.Recent < 0:
		return bad("option.WithRecentMessages(%d): a count < 0", s.Recent)
	case s.MaxBytes < 0:
		return bad("option.WithMaxMessageBytes(%d): max message bytes < 0", s.MaxBytes)
	case !(s.Redundancy > 0 && s.Redundancy <= 1):
		return bad("option.WithRedundancyThreshold(%v): redundancy threshold not in (0, 1]", s.Redundancy)
	case !(s.HalfLife > 0):
		return bad("option.WithHalfLife(%v): half-life must be positive", s.HalfLife)
	case s.Embedder != nil && NilPointer(s.Embedder):
		return bad("option.WithEmbedder: the embedder is a nil %T", s.Embedder)
	case s.Chat != nil && NilPointer(s.Chat):
		return bad("option.WithChatHistory: the history is a nil %T", s.Chat)
	}
	return nil
}

// maxCount is the most tokens a text counts for, the most a saved unit
// holds (where cl100k_base gives a 23 MiB message about 6 million).
const maxCount = math.MaxInt32

// Resolve fills in what was left unset — the counter of the encoding, the
// default embedder (engram's own, made with embedder), the logger and the
// clock — and routes every call into the embedder, the fact extractor
// and the chat history through the memory's guards. The default embedder
// is engram's own and is called directly.
func (s *Shared) Resolve(embedder ...embed.Option) error {
	if s.Counter == nil {
		c, err := tokens.Get(s.Encoding)
		if err != nil {
			return fmt.Errorf("%s: option.WithEncoding(%q): %w: %w", s.pkg, s.Encoding, err, engram.ErrInvalidOption)
		}
		s.Counter = c.Count
	} else {
		// A count below zero would let the lines a load keeps cost more
		// than its budget says: a counter that gives one counts nothing.
		// One above maxCount, more than any text holds, counts maxCount,
		// so that the sums of a load's counts cannot overflow.
		count := s.Counter
		s.Counter = func(t string) int { return min(max(0, count(t)), maxCount) }
	}
	if s.Embedder == nil {
		e, err := embed.New(embedder...)
		if err != nil {
			return fmt.Errorf("%s: %w", s.pkg, err)
		}
		s.Embedder = e
	}
	if s.Logger == nil {
		s.Logger = slog.Default()
	}
	if s.Now == nil {
		s.Now = time.Now
	}
	var onFail func(error)
	if h, pkg := s.OnError, s.pkg; h != nil {
		onFail = func(err error) { h(fmt.Errorf("%s: %w", pkg, err)) }
	}
	s.Guards = guard.NewPlugins(s.Logger, onFail)
	if _, own := s.Embedder.(*embed.Embedder); !own {
		s.Embedder = guard.Embedder(s.Embedder, s.Guards.Embedder)
	}
	if s.Facts != nil {
		s.Facts = guard.Extractor(s.Facts, s.Guards.Facts)
	}
	if s.Chat != nil {
		s.Chat = guard.History(s.Chat, s.Guards.ChatHistory)
	}
	s.Layout = LayoutOf(s.Embedder) // engram's own embedder is not wrapped by the guards
	return nil
}

// Exchange returns the human and AI messages of a SaveContext call, found
// by the input and output keys as langchaingo's buffers find them, after
// checking ctx. Its errors are named the memory's save.
func (s *Shared) Exchange(ctx context.Context, inputs, outputs map[string]any) (in, out string, err error) {
	if err := memvars.Context(ctx); err != nil {
		return "", "", fmt.Errorf("%s: save: %w", s.pkg, err)
	}
	if in, err = memvars.Input(inputs, s.InputKey, s.MemoryKey); err != nil {
		return "", "", fmt.Errorf("%s: save inputs: %w", s.pkg, err)
	}
	if out, err = memvars.Output(outputs, s.OutputKey, s.MemoryKey); err != nil {
		return "", "", fmt.Errorf("%s: save outputs: %w", s.pkg, err)
	}
	return in, out, nil
}

// Query returns the query of a LoadMemoryVariables call, found by the
// input key as on save, after checking ctx. Its errors are named the
// memory's load.
func (s *Shared) Query(ctx context.Context, inputs map[string]any) (string, error) {
	if err := memvars.Context(ctx); err != nil {
		return "", fmt.Errorf("%s: load: %w", s.pkg, err)
	}
	q, err := memvars.Query(inputs, s.InputKey, s.MemoryKey)
	if err != nil {
		return "", fmt.Errorf("%s: load: %w", s.pkg, err)
	}
	return q, nil
}

// EmbedSlots embeds the words of fact slots ("Omar home city") for a load
// to compare with its query. A failure is logged, with attrs, and gives
// nil: the slots are then found through their statements alone.
func (s *Shared) EmbedSlots(ctx context.Context, texts []string, attrs ...any) [][]float32 {
	vs, err := s.Embedder.EmbedDocuments(ctx, texts)
	if err == nil && len(vs) != len(texts) {
		err = fmt.Errorf("embedder returned %d vectors for %d texts", len(vs), len(texts))
	}
	if err != nil {
		s.Logger.Warn(s.pkg+": fact slots not embedded; a load finds them through their statements alone", append(attrs, "error", err)...)
		return nil
	}
	return vs
}
