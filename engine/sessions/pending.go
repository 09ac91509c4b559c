package sessions

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Branch is one branch of a session: the path from a root to a leaf.
type Branch struct {
	Tip  Key       // the leaf node
	Time time.Time // the leaf's time
}

// Session summarises one stored session.
type Session struct {
	ID       string
	Provider string
	// Thread is the archive thread name the writer stores the session's
	// turns under (sources/<provider>/_v2/<thread>.md): the id itself when
	// that is a portable file name, otherwise an escaped form.
	Thread    string
	FirstTime time.Time // oldest node time
	LastTime  time.Time // newest node time: the last activity
	Nodes     int       // every node, turns or not
}

// Key returns the session's identity.
func (s Session) Key() SessionKey { return SessionKey{s.Provider, s.ID} }

// PendingSession is a session that owes turns to a workspace on at least one
// branch.
type PendingSession struct {
	Session      string
	Provider     string
	Thread       string    // as in Session
	LastActivity time.Time // newest node time of the session, for the idle watcher
	Turns        int       // pending turns over all branches, each counted once
}

// Key returns the session's identity.
func (p PendingSession) Key() SessionKey { return SessionKey{p.Provider, p.Session} }

// Sessions lists every stored session, oldest last activity first (then by
// provider and id).
func (s *Store) Sessions() ([]Session, error) {
	rows, err := s.db.Query(`SELECT s.id, s.provider, s.thread, s.first_time, s.last_time,
		(SELECT count(*) FROM nodes n WHERE n.session = s.seq)
		FROM sessions s ORDER BY s.last_time, s.provider, s.id`)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		var ss Session
		var first, last string
		if err := rows.Scan(&ss.ID, &ss.Provider, &ss.Thread, &first, &last, &ss.Nodes); err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		if ss.FirstTime, err = parseStored(first); err != nil {
			return nil, fmt.Errorf("list sessions: session %s: %w", ss.Key(), err)
		}
		if ss.LastTime, err = parseStored(last); err != nil {
			return nil, fmt.Errorf("list sessions: session %s: %w", ss.Key(), err)
		}
		out = append(out, ss)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return out, nil
}

// Branches returns the branches of a session, newest tip first (by time,
// then by insertion order), so the first one is the session's current head.
// It returns ErrSessionNotFound for an unknown session.
func (s *Store) Branches(session SessionKey) ([]Branch, error) {
	session = session.norm()
	rows, err := s.db.Query(branchesQuery, session.Provider, session.Session)
	if err != nil {
		return nil, fmt.Errorf("branches of %s: %w", session, err)
	}
	defer rows.Close()
	var out []Branch
	for rows.Next() {
		var id, ts string
		if err := rows.Scan(&id, &ts); err != nil {
			return nil, fmt.Errorf("branches of %s: %w", session, err)
		}
		b := Branch{Tip: session.Node(id)}
		if b.Time, err = parseStored(ts); err != nil {
			return nil, fmt.Errorf("branches of %s: node %q: %w", session, id, err)
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("branches of %s: %w", session, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s", ErrSessionNotFound, session)
	}
	return out, nil
}

// pendingWalk walks from the starting rows (the first %s selects them)
// back towards the roots, stopping at the first node marked for workspace
// :ws; the marked node itself is filtered out by the caller. The walk always
// ends: the schema guarantees parent_seq < seq. The second %s is UNION when
// walks from several tips may meet (each shared node is then visited once)
// and UNION ALL for a single tip, which needs no de-duplication.
const pendingWalk = `WITH RECURSIVE walk(seq, parent_seq, written) AS (
	SELECT seq, parent_seq, written FROM nodes WHERE %s
	%s
	SELECT p.seq, p.parent_seq, p.written FROM walk w JOIN nodes p ON p.seq = w.parent_seq
	 WHERE w.written IS NOT :ws
)`

// The queries below join with CROSS JOIN, which makes SQLite keep the walk
// as the outer loop; left free, it may scan nodes and probe the walk.

// turnFilter keeps the unmarked turns of a walk, the SQL form of
// Node.IsTurn: mechanics (tool rows, system rows, synthetic rows, assistant
// rows without text) are never pending.
const turnFilter = `w.written IS NOT :ws AND n.role IN ('user', 'assistant') AND n.synthetic = 0
	AND trim(n.content, char(32, 9, 13, 10)) <> ''`

// nodeSeqQuery resolves a node key to its seq.
const nodeSeqQuery = `SELECT n.seq FROM sessions s JOIN nodes n ON n.session = s.seq
 WHERE s.provider = ? AND s.id = ? AND n.id = ?`

var (
	branchesQuery = `SELECT n.id, n.time FROM sessions s JOIN nodes n ON n.session = s.seq
 WHERE s.provider = ? AND s.id = ? AND n.has_children = 0 ORDER BY n.time DESC, n.seq DESC`

	markWrittenQuery = `UPDATE nodes SET metadata = json_set(metadata, '$.` + MarkerKey + `', ?) WHERE seq = ?`

	pendingTurnsQuery = fmt.Sprintf(pendingWalk, `seq = :tip`, `UNION ALL`) + `
SELECT ` + nodeColumns + ` FROM walk w CROSS JOIN nodes n ON n.seq = w.seq JOIN sessions s ON s.seq = n.session
 WHERE ` + turnFilter + ` ORDER BY n.seq`

	pendingSessionsQuery = fmt.Sprintf(pendingWalk, `has_children = 0`, `UNION`) + `
SELECT s.id, s.provider, s.thread, s.last_time, count(*) FROM walk w CROSS JOIN nodes n ON n.seq = w.seq JOIN sessions s ON s.seq = n.session
 WHERE ` + turnFilter + ` GROUP BY n.session ORDER BY s.last_time, s.provider, s.id`
)

// nodeSeq resolves k, or returns ErrNodeNotFound.
func nodeSeq(q interface {
	QueryRow(query string, args ...any) *sql.Row
}, k Key) (int64, error) {
	var seq int64
	err := q.QueryRow(nodeSeqQuery, k.Provider, k.Session, k.ID).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("%w: %s", ErrNodeNotFound, k)
	}
	return seq, err
}

// PendingTurns returns the turns of the branch ending at tip that are not
// yet written to workspaceID, oldest first: it walks back from the tip to
// the newest node marked for this workspace and keeps the unmarked suffix.
// Markers for other workspaces are ignored. Only turns (see Node.IsTurn)
// are returned. The tip names its session; an unknown tip wraps
// ErrNodeNotFound.
func (s *Store) PendingTurns(tip Key, workspaceID string) ([]Node, error) {
	if workspaceID == "" {
		return nil, fmt.Errorf("pending turns: %w: empty workspace id", ErrInvalidArgument)
	}
	tip = tip.norm()
	seq, err := nodeSeq(s.db, tip)
	if err != nil {
		return nil, fmt.Errorf("pending turns: %w", err)
	}
	rows, err := s.db.Query(pendingTurnsQuery, sql.Named("tip", seq), sql.Named("ws", workspaceID))
	if err != nil {
		return nil, fmt.Errorf("pending turns: %w", err)
	}
	defer rows.Close()
	var out []Node
	for rows.Next() {
		n, err := scanNode(rows)
		if err != nil {
			return nil, fmt.Errorf("pending turns: %w", err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("pending turns: %w", err)
	}
	return out, nil
}

// PendingSessions lists the sessions that owe turns to workspaceID on any
// branch, oldest last activity first. A session whose branches share an
// unmarked prefix counts those turns once.
func (s *Store) PendingSessions(workspaceID string) ([]PendingSession, error) {
	if workspaceID == "" {
		return nil, fmt.Errorf("pending sessions: %w: empty workspace id", ErrInvalidArgument)
	}
	rows, err := s.db.Query(pendingSessionsQuery, sql.Named("ws", workspaceID))
	if err != nil {
		return nil, fmt.Errorf("pending sessions: %w", err)
	}
	defer rows.Close()
	var out []PendingSession
	for rows.Next() {
		var p PendingSession
		var ts string
		if err := rows.Scan(&p.Session, &p.Provider, &p.Thread, &ts, &p.Turns); err != nil {
			return nil, fmt.Errorf("pending sessions: %w", err)
		}
		if p.LastActivity, err = parseStored(ts); err != nil {
			return nil, fmt.Errorf("pending sessions: session %s: %w", p.Key(), err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("pending sessions: %w", err)
	}
	return out, nil
}

// MarkWritten records that the given nodes were written to workspaceID: it
// sets metadata.memory_written_scriptorium on each, keeping every other
// metadata key. It is all or nothing: if any key is unknown, no node is
// marked and the error wraps ErrNodeNotFound and names every unknown key.
func (s *Store) MarkWritten(nodes []Key, workspaceID string) error {
	if workspaceID == "" {
		return fmt.Errorf("mark written: %w: empty workspace id", ErrInvalidArgument)
	}
	if len(nodes) == 0 {
		return nil
	}
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("mark written: %w", err)
	}
	defer tx.Rollback()
	stmt, err := tx.Prepare(markWrittenQuery)
	if err != nil {
		return fmt.Errorf("mark written: %w", err)
	}
	defer stmt.Close()
	var missing []string
	for _, k := range nodes {
		k = k.norm()
		seq, err := nodeSeq(tx, k)
		if errors.Is(err, ErrNodeNotFound) {
			missing = append(missing, k.String())
			continue
		}
		if err != nil {
			return fmt.Errorf("mark written %s: %w", k, err)
		}
		if _, err := stmt.Exec(workspaceID, seq); err != nil {
			return fmt.Errorf("mark written %s: %w", k, err)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("mark written: %w: %s", ErrNodeNotFound, strings.Join(missing, ", "))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("mark written: commit: %w", err)
	}
	return nil
}

func parseStored(ts string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored time %q: %w", ts, err)
	}
	return t.UTC(), nil
}
