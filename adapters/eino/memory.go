package eino

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/cloudwego/eino/flow/agent"
	"github.com/cloudwego/eino/schema"
	"github.com/engram-go/engram"
	"github.com/tmc/langchaingo/llms"
	lcschema "github.com/tmc/langchaingo/schema"
)

// Memory connects an eino agent to an engram memory.
type Memory struct {
	mem      lcschema.Memory
	inputKey string
	outKey   string
	header   string

	mu      sync.Mutex // guards errors and last
	errors  int
	lastErr error
}

// Option configures a [Memory].
type Option func(*Memory)

// WithInputKey sets the key under which the user's message is passed to
// the memory, for loads and saves. Default "input".
func WithInputKey(k string) Option { return func(m *Memory) { m.inputKey = k } }

// WithOutputKey sets the key under which the agent's answer is saved.
// Default "output".
func WithOutputKey(k string) Option { return func(m *Memory) { m.outKey = k } }

// WithHeader sets the line that introduces the remembered history in the
// system message. Default "What you remember of earlier conversation:".
func WithHeader(h string) Option { return func(m *Memory) { m.header = h } }

// Generator is what [Memory.Generate] runs: a react.Agent, or anything that
// answers messages like one.
type Generator interface {
	Generate(ctx context.Context, input []*schema.Message, opts ...agent.AgentOption) (*schema.Message, error)
}

// New wraps mem for eino. A nil mem (or a nil pointer in it, what a
// failed New returns) and a nil option are refused with an error wrapping
// [engram.ErrInvalidOption].
func New(mem lcschema.Memory, opts ...Option) (*Memory, error) {
	if v := reflect.ValueOf(mem); mem == nil || v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("eino: nil memory (%T): %w", mem, engram.ErrInvalidOption)
	}
	m := &Memory{mem: mem, inputKey: "input", outKey: "output", header: "What you remember of earlier conversation:"}
	for i, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("eino: option %d of %d is nil: %w", i+1, len(opts), engram.ErrInvalidOption)
		}
		o(m)
	}
	if m.inputKey == "" || m.outKey == "" {
		return nil, fmt.Errorf("eino: empty input or output key: %w", engram.ErrInvalidOption)
	}
	return m, nil
}

// Modifier returns a function for react.AgentConfig.MessageModifier (or any
// hook that rewrites a model's input). Before each model call it loads the
// memory with the latest user message as the query and inserts what the
// memory returns as a system message after the leading system messages. If
// the memory returns nothing, or fails, the input is returned unchanged.
func (m *Memory) Modifier() func(ctx context.Context, input []*schema.Message) []*schema.Message {
	return func(ctx context.Context, input []*schema.Message) []*schema.Message {
		history, err := m.Load(ctx, lastUser(input))
		if err != nil {
			m.fail(err)
			return input
		}
		if history == "" {
			return input
		}
		i := 0
		for i < len(input) && input[i] != nil && input[i].Role == schema.System {
			i++
		}
		out := make([]*schema.Message, 0, len(input)+1)
		out = append(out, input[:i]...)
		out = append(out, schema.SystemMessage(m.header+"\n"+history))
		return append(out, input[i:]...)
	}
}

// Load returns what the memory keeps for query, as text.
func (m *Memory) Load(ctx context.Context, query string) (string, error) {
	vars, err := m.mem.LoadMemoryVariables(ctx, map[string]any{m.inputKey: query})
	if err != nil {
		return "", fmt.Errorf("eino: load: %w", err)
	}
	switch v := vars[m.mem.GetMemoryKey(ctx)].(type) {
	case nil:
		return "", nil
	case string:
		return strings.TrimSpace(v), nil
	case []llms.ChatMessage:
		s, err := llms.GetBufferString(v, "Human", "AI")
		if err != nil {
			return "", fmt.Errorf("eino: load: %w", err)
		}
		return strings.TrimSpace(s), nil
	default:
		return "", fmt.Errorf("eino: load: memory value is %T: %w", v, engram.ErrInvalidInput)
	}
}

// Save stores one turn: the latest user message of input and the answer.
func (m *Memory) Save(ctx context.Context, input []*schema.Message, answer *schema.Message) error {
	out := ""
	if answer != nil {
		out = answer.Content
	}
	err := m.mem.SaveContext(ctx, map[string]any{m.inputKey: lastUser(input)}, map[string]any{m.outKey: out})
	if err != nil {
		return fmt.Errorf("eino: save: %w", err)
	}
	return nil
}

// Generate runs one turn of g and saves it. If g fails and the memory is an
// [engram.RewardSink], the failure is Observed as a chain error with reward
// −1, since there is no answer to save; g's error is returned either way.
func (m *Memory) Generate(ctx context.Context, g Generator, input []*schema.Message, opts ...agent.AgentOption) (*schema.Message, error) {
	answer, err := g.Generate(ctx, input, opts...)
	if err != nil {
		if sink, ok := m.mem.(engram.RewardSink); ok {
			step := engram.Step{Kind: engram.StepChainError, Text: `task "` + lastUser(input) + `" failed: ` + firstLine(err.Error()), Reward: -1}
			if oerr := sink.Observe(ctx, step); oerr != nil {
				m.fail(oerr)
			}
		}
		return nil, err
	}
	if err := m.Save(ctx, input, answer); err != nil {
		return answer, err
	}
	return answer, nil
}

// Errors returns how many loads in [Memory.Modifier] failed, and the last error.
func (m *Memory) Errors() (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.errors, m.lastErr
}

func (m *Memory) fail(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.errors++
	m.lastErr = err
}

// lastUser returns the content of the latest user message, or "".
func lastUser(msgs []*schema.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i] != nil && msgs[i].Role == schema.User {
			return msgs[i].Content
		}
	}
	return ""
}

// firstLine returns s up to its first line break: eino's node errors go on
// with a graph path that says nothing about the task.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}
