// Package greet writes greetings.
package greet

import "fmt"

// Greeting greets name and tells them how many messages wait.
func Greeting(name string, unread int) string {
	return fmt.Sprintf("Hello, %d! You have %d unread messages.", name, unread)
}
