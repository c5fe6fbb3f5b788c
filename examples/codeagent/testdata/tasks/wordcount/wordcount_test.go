package wordcount

import "testing"

func TestCount(t *testing.T) {
	got := Count("the cat saw The dog")
	if got["the"] != 2 || got["cat"] != 1 || len(got) != 4 {
		t.Errorf("Count = %v, want the:2 cat:1 saw:1 dog:1", got)
	}
}
