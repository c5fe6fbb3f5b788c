package eino_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/ratedistortion"
	lcschema "github.com/tmc/langchaingo/schema"
)

// memories are the backends every test runs against; add one per line.
var memories = []struct {
	name string
	new  func(t testing.TB) lcschema.Memory
}{
	{"ratedistortion", func(t testing.TB) lcschema.Memory { return must[*ratedistortion.Buffer](t)(ratedistortion.New()) }},
	{"dmem", func(t testing.TB) lcschema.Memory { return must[*dmem.Memory](t)(dmem.New(context.Background())) }},
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// fakeModel is an eino tool-calling chat model that answers from a script
// and records every input it is given.
type fakeModel struct {
	mu     sync.Mutex
	script []any // *schema.Message or error, in turn
	inputs [][]*schema.Message
}

var _ model.ToolCallingChatModel = (*fakeModel)(nil)

func (f *fakeModel) Generate(_ context.Context, in []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.inputs = append(f.inputs, in)
	if len(f.script) == 0 {
		return nil, errors.New("script exhausted")
	}
	next := f.script[0]
	f.script = f.script[1:]
	if err, ok := next.(error); ok {
		return nil, err
	}
	return next.(*schema.Message), nil
}

func (f *fakeModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	m, err := f.Generate(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{m}), nil
}

func (f *fakeModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) { return f, nil }

func (f *fakeModel) Inputs() [][]*schema.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]*schema.Message(nil), f.inputs...)
}

// weather is an eino tool that always answers.
type weather struct{}

func (weather) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "weather", Desc: "current weather in a city",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{"city": {Type: schema.String}})}, nil
}

func (weather) InvokableRun(_ context.Context, args string, _ ...tool.Option) (string, error) {
	return "18°C, sunny (" + args + ")", nil
}

func callWeather(city string) *schema.Message {
	return schema.AssistantMessage("", []schema.ToolCall{{ID: "call-1", Type: "function",
		Function: schema.FunctionCall{Name: "weather", Arguments: `{"city":"` + city + `"}`}}})
}
