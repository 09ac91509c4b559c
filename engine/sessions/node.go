package sessions

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The trust tiers a node's sender can have (SPEC §5).
const (
	TierOwner    = "owner"    // the local interactive user
	TierPaired   = "paired"   // a paired channel user
	TierUnpaired = "unpaired" // anyone else; never distilled
)

// The roles that make a turn; every other role is mechanics.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// DefaultProvider is the provider of an imported turn that names none.
const DefaultProvider = "openprogram"

// MarkerKey is the metadata key of the written marker.
const MarkerKey = "memory_written_scriptorium"

// timeLayout is how times are stored: RFC 3339 UTC at second precision, a
// fixed-width form that sorts correctly as text (SPEC §3.1).
const timeLayout = "2006-01-02T15:04:05Z"

// Node is one stored conversation node.
type Node struct {
	ID             string          `json:"id"`
	Session        string          `json:"session"`
	Provider       string          `json:"provider"`
	Parent         string          `json:"parent"` // "" for a root
	Role           string          `json:"role"`
	Content        string          `json:"content"` // byte-exact
	SpeakerID      string          `json:"speaker_id"`
	SpeakerDisplay string          `json:"speaker_display"`
	Time           time.Time       `json:"time"` // UTC, second precision
	Tier           string          `json:"tier"`
	Group          bool            `json:"group"`
	Synthetic      bool            `json:"synthetic"`
	Metadata       json.RawMessage `json:"metadata"` // a JSON object, "{}" when empty
	// Written is the workspace id of the node's written marker, "" when the
	// node is unmarked. It mirrors metadata.memory_written_scriptorium.
	Written string `json:"-"`
}

// IsTurn reports whether the node is content a person or the assistant
// produced: role user or assistant, not synthetic, and with some text.
// Tool calls (an assistant row without text), tool results, system rows and
// runtime-generated user rows are mechanics and are never written to memory.
func (n Node) IsTurn() bool {
	return (n.Role == RoleUser || n.Role == RoleAssistant) && !n.Synthetic &&
		strings.Trim(n.Content, " \t\r\n") != ""
}

// nodeColumns is the column list scanNode expects, for a table aliased n
// joined with sessions aliased s.
const nodeColumns = `n.id, n.session, s.provider, coalesce(n.parent, ''), n.role, n.content,
	n.speaker_id, n.speaker_display, n.time, n.tier, n.grp, n.synthetic, n.metadata, coalesce(n.written, '')`

// nodeByIDQuery selects one node by id.
const nodeByIDQuery = `SELECT ` + nodeColumns + ` FROM nodes n JOIN sessions s ON s.id = n.session WHERE n.id = ?`

type rowScanner interface{ Scan(dest ...any) error }

func scanNode(r rowScanner) (Node, error) {
	var n Node
	var ts, meta string
	if err := r.Scan(&n.ID, &n.Session, &n.Provider, &n.Parent, &n.Role, &n.Content,
		&n.SpeakerID, &n.SpeakerDisplay, &ts, &n.Tier, &n.Group, &n.Synthetic, &meta, &n.Written); err != nil {
		return Node{}, err
	}
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return Node{}, fmt.Errorf("node %q: stored time %q: %w", n.ID, ts, err)
	}
	n.Time = t.UTC()
	n.Metadata = json.RawMessage(meta)
	return n, nil
}

// Node returns the stored node with the given id, or ErrNodeNotFound.
func (s *Store) Node(id string) (Node, error) {
	row := s.db.QueryRow(nodeByIDQuery, id)
	n, err := scanNode(row)
	if err == sql.ErrNoRows {
		return Node{}, fmt.Errorf("%w: %q", ErrNodeNotFound, id)
	}
	if err != nil {
		return Node{}, fmt.Errorf("read node %q: %w", id, err)
	}
	return n, nil
}

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }
