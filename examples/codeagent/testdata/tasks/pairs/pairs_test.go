package pairs

import (
	"slices"
	"testing"
)

func TestGaps(t *testing.T) {
	if got := Gaps([]int{1, 4, 9, 16}); !slices.Equal(got, []int{3, 5, 7}) {
		t.Errorf("Gaps(1, 4, 9, 16) = %v, want [3 5 7]", got)
	}
}
