package engram

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Namespace walls one tenant's memories off from every other's: a unit is
// never returned, counted, merged, evicted or learned from outside its
// namespace. Any field may be empty; the zero Namespace is a namespace too.
type Namespace struct {
	User, Agent, Session string
}

// Valid reports whether every field is valid UTF-8 without NUL bytes, as
// stores such as PostgreSQL require.
func (n Namespace) Valid() bool {
	for _, f := range [...]string{n.User, n.Agent, n.Session} {
		if !utf8.ValidString(f) || strings.IndexByte(f, 0) >= 0 {
			return false
		}
	}
	return true
}

// String renders the namespace as "user"/"agent"/"session", for messages.
func (n Namespace) String() string { return fmt.Sprintf("%q/%q/%q", n.User, n.Agent, n.Session) }
