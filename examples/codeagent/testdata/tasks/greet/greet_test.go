package greet

import "testing"

func TestGreeting(t *testing.T) {
	want := "Hello, Ada! You have 3 unread messages."
	if got := Greeting("Ada", 3); got != want {
		t.Errorf("Greeting = %q, want %q", got, want)
	}
}
