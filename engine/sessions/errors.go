package sessions

import (
	"errors"
	"fmt"
	"strings"
)

// ErrSessionNotFound is returned when a session key names no stored session.
var ErrSessionNotFound = errors.New("session not found")

// ErrNodeNotFound is returned when a node key names no stored node.
var ErrNodeNotFound = errors.New("node not found")

// ErrSchemaTooNew is returned by Open when sessions.db was migrated by a
// newer program than this one; it is left untouched.
var ErrSchemaTooNew = errors.New("sessions.db schema is newer than this program")

// ErrInvalidArgument is returned when a caller passes an unusable argument,
// such as an empty workspace id.
var ErrInvalidArgument = errors.New("invalid argument")

// LineError is one rejected line of an import file.
type LineError struct {
	Line    int    `json:"line"`    // 1-based line number in the file (a Node's position in AddNodes)
	Message string `json:"message"` // what is wrong with it
	File    int    `json:"-"`       // the file's index in its ImportBatch, in the order added (0 for Store.Import)
	Turn    Key    `json:"-"`       // the turn's key, as far as the line gave one
}

// Error formats the line error as "line N: message".
func (e LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Message) }

// ImportError is returned by Import (and ImportBatch.Commit) when any line
// is bad. It lists every problem found, in file and line order; nothing was
// stored.
type ImportError struct {
	Lines []LineError
}

// Error summarises the first few problems; Lines holds all of them.
func (e *ImportError) Error() string {
	const shown = 5
	var b strings.Builder
	fmt.Fprintf(&b, "%d bad line(s), nothing stored", len(e.Lines))
	for i, l := range e.Lines {
		if i == shown {
			fmt.Fprintf(&b, "; and %d more", len(e.Lines)-shown)
			break
		}
		b.WriteString("; ")
		b.WriteString(l.Error())
	}
	return b.String()
}
