package callbacks

import (
	"context"

	lcb "github.com/tmc/langchaingo/callbacks"
)

// callKey is the context key under which a wrapped tool's events carry the call.
type callKey struct{}

// call is a wrapped tool's call, seen by the handler through the context.
type call struct {
	name, input string
	parent      context.Context // the context the tool was called with
}

// ToolOption configures a tool made by [WrapTool].
type ToolOption func(*tool)

// ErrorsAsObservations makes a wrapped tool's failure, once reported to the
// handler, reach the agent as the observation "error: <message>" with a nil
// error, so that the agent can try again; langchaingo's executor otherwise
// ends the run on a tool error. Default: errors are returned unchanged.
func ErrorsAsObservations() ToolOption { return func(t *tool) { t.observeErrors = true } }

// Tool is langchaingo's tools.Tool, declared here with the same methods so
// that the handler does not import langchaingo's tools package, whose
// calculator brings a Starlark interpreter into every build and its
// module's requirements (a terminal package among them) into every module
// graph: any tools.Tool is a Tool, and every Tool, such as the one
// [WrapTool] returns, is a tools.Tool.
type Tool interface {
	// Name is the tool's name, as the agent's prompt gives it.
	Name() string
	// Description tells the agent what the tool does.
	Description() string
	// Call runs the tool on its input.
	Call(ctx context.Context, input string) (string, error)
}

// tool is a Tool that reports its calls to a handler.
type tool struct {
	Tool
	handler       lcb.Handler
	observeErrors bool
}

// WrapTool returns t reporting each call to h, which langchaingo's executor
// does not do: HandleToolStart with the input before the call, then
// HandleToolEnd with the output or HandleToolError with the error. The events
// carry the tool's name, so steps read "search(weather in Paris) → 18°C".
// Name, Description and the call itself are t's. Do not also give t its own
// handler, or each call is reported twice. A nil h returns t.
func WrapTool(t Tool, h lcb.Handler, opts ...ToolOption) Tool {
	if h == nil {
		return t
	}
	w := &tool{Tool: t, handler: h}
	for _, o := range opts {
		o(w)
	}
	return w
}

// Call calls the wrapped tool between the handler's events.
func (t *tool) Call(ctx context.Context, input string) (string, error) {
	ev := context.WithValue(ctx, callKey{}, &call{name: t.Name(), input: input, parent: ctx})
	t.handler.HandleToolStart(ev, input)
	out, err := t.Tool.Call(ctx, input)
	if err != nil {
		t.handler.HandleToolError(ev, err)
		if t.observeErrors {
			return "error: " + err.Error(), nil
		}
		return out, err
	}
	t.handler.HandleToolEnd(ev, out)
	return out, nil
}
