package callbacks

import (
	"testing"

	"github.com/tmc/langchaingo/agents"
)

// The handler knows the executor's give-up output by its text, without
// importing the agents package: the text must stay the executor's.
func TestNotFinishedIsTheExecutorsText(t *testing.T) {
	if errNotFinished != agents.ErrNotFinished.Error() {
		t.Fatalf("errNotFinished %q, the executor finishes with %q", errNotFinished, agents.ErrNotFinished.Error())
	}
}
