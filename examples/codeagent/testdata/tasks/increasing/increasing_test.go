package increasing

import "testing"

func TestIncreasing(t *testing.T) {
	if !Increasing([]int{1, 2, 2, 5}) {
		t.Error("Increasing(1, 2, 2, 5) = false, want true")
	}
	if Increasing([]int{3, 1}) {
		t.Error("Increasing(3, 1) = true, want false")
	}
}
