package label

import "testing"

func TestLabel(t *testing.T) {
	if got, want := Label("tea", 12), "tea: 12 in stock"; got != want {
		t.Errorf("Label = %q, want %q", got, want)
	}
}
