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

// Metadata keys an import stores with a turn, when its transcript says them
// (engine/importer): what a chat export records beyond the node's fields,
// for the writer and the reviewer. Each value is a JSON string.
const (
	MetaReplyTo = "reply_to" // the id of the message of the session this turn answers
	MetaProject = "project"  // the working directory of a coding session
	MetaTitle   = "title"    // the chat's or conversation's name
)

// timeLayout is how times are stored: RFC 3339 UTC at second precision, a
// fixed-width form that sorts correctly as text (SPEC §3.1).
const timeLayout = "2006-01-02T15:04:05Z"

// SessionKey identifies a session. Chats number their sessions per provider,
// so a session id is only unique within its provider (SPEC §7). An empty
// Provider means DefaultProvider, as it does on an import line.
type SessionKey struct {
	Provider string `json:"provider"`
	Session  string `json:"session"`
}

// Key identifies a node: chats number their messages per chat, so the same
// id in two sessions or two providers is two nodes (SPEC §7). An empty
// Provider means DefaultProvider.
type Key struct {
	Provider string `json:"provider"`
	Session  string `json:"session"`
	ID       string `json:"id"`
}

// SessionKey returns the key of the node's session.
func (k Key) SessionKey() SessionKey { return SessionKey{k.Provider, k.Session} }

// String formats the key as provider/session/id, for messages. It is not a
// source-id: the thread of a source-id may differ from the session id (see
// Node.SourceID).
func (k Key) String() string { return k.SessionKey().String() + "/" + k.ID }

// Node returns the key of the node id in this session.
func (k SessionKey) Node(id string) Key { return Key{k.Provider, k.Session, id} }

// String formats the key as provider/session, for messages.
func (k SessionKey) String() string { return k.norm().Provider + "/" + k.Session }

func (k SessionKey) norm() SessionKey {
	if k.Provider == "" {
		k.Provider = DefaultProvider
	}
	return k
}

func (k Key) norm() Key {
	if k.Provider == "" {
		k.Provider = DefaultProvider
	}
	return k
}

// Node is one stored conversation node.
type Node struct {
	ID       string `json:"id"`
	Session  string `json:"session"`
	Provider string `json:"provider"`
	// Thread is the archive thread name of the node's session, decided when
	// the session was first imported: the session id itself when that is a
	// portable file name, otherwise an escaped form (see the package doc).
	Thread         string          `json:"thread"`
	Parent         string          `json:"parent"` // id of the parent in the same session; "" for a root
	Role           string          `json:"role"`
	Content        string          `json:"content"` // byte-exact
	SpeakerID      string          `json:"speaker_id"`
	SpeakerDisplay string          `json:"speaker_display"` // normalised as an archive label half
	Time           time.Time       `json:"time"`            // UTC, second precision
	Tier           string          `json:"tier"`
	Group          bool            `json:"group"`
	Synthetic      bool            `json:"synthetic"`
	Metadata       json.RawMessage `json:"metadata"` // a JSON object, "{}" when empty
	// Written is the workspace id of the node's written marker, "" when the
	// node is unmarked. It mirrors metadata.memory_written_scriptorium.
	Written string `json:"-"`
}

// Key returns the node's identity.
func (n Node) Key() Key { return Key{n.Provider, n.Session, n.ID} }

// SessionKey returns the identity of the node's session.
func (n Node) SessionKey() SessionKey { return SessionKey{n.Provider, n.Session} }

// SourceID returns the node's source-id, <provider>/<thread>/<id> (SPEC
// §3.1): the id the writer archives the node under. A node without a Thread
// (one not read from the store) uses its session id.
func (n Node) SourceID() string {
	thread := n.Thread
	if thread == "" {
		thread = n.Session
	}
	provider := n.Provider
	if provider == "" {
		provider = DefaultProvider
	}
	return provider + "/" + thread + "/" + n.ID
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
// joined with sessions aliased s (ON s.seq = n.session).
const nodeColumns = `n.id, s.id, s.provider, s.thread, coalesce(n.parent, ''), n.role, n.content,
	n.speaker_id, n.speaker_display, n.time, n.tier, n.grp, n.synthetic, n.metadata, coalesce(n.written, '')`

// nodeByKeyQuery selects one node by provider, session and id.
const nodeByKeyQuery = `SELECT ` + nodeColumns + ` FROM sessions s JOIN nodes n ON n.session = s.seq
 WHERE s.provider = ? AND s.id = ? AND n.id = ?`

type rowScanner interface{ Scan(dest ...any) error }

// seqScanner scans a row of nodeColumns followed by the node's seq.
type seqScanner struct {
	rowScanner
	seq *int64
}

func (s seqScanner) Scan(dest ...any) error { return s.rowScanner.Scan(append(dest, s.seq)...) }

func scanNode(r rowScanner) (Node, error) {
	var n Node
	var ts, meta string
	if err := r.Scan(&n.ID, &n.Session, &n.Provider, &n.Thread, &n.Parent, &n.Role, &n.Content,
		&n.SpeakerID, &n.SpeakerDisplay, &ts, &n.Tier, &n.Group, &n.Synthetic, &meta, &n.Written); err != nil {
		return Node{}, err
	}
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return Node{}, fmt.Errorf("node %s: stored time %q: %w", n.Key(), ts, err)
	}
	n.Time = t.UTC()
	n.Metadata = json.RawMessage(meta)
	return n, nil
}

// Node returns the stored node with the given key, or ErrNodeNotFound.
func (s *Store) Node(k Key) (Node, error) {
	k = k.norm()
	n, err := scanNode(s.db.QueryRow(nodeByKeyQuery, k.Provider, k.Session, k.ID))
	if err == sql.ErrNoRows {
		return Node{}, fmt.Errorf("%w: %s", ErrNodeNotFound, k)
	}
	if err != nil {
		return Node{}, fmt.Errorf("read node %s: %w", k, err)
	}
	return n, nil
}

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }
