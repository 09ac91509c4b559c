package sessions

import (
	"database/sql"
	"fmt"
	"strings"
)

// A session whose turns have no parent (a group chat exported without
// replies) has one branch per turn. Reading and writing it branch by
// branch costs one walk and one install per turn, which grows with the
// square of the chat; the queries below read a session's pending work and
// check a batch's nodes in one statement each.

var (
	pendingSessionTurnsQuery = fmt.Sprintf(pendingWalk,
		`session = (SELECT seq FROM sessions WHERE provider = :provider AND id = :id) AND has_children = 0`, `UNION`) + `
SELECT ` + nodeColumns + ` FROM walk w CROSS JOIN nodes n ON n.seq = w.seq JOIN sessions s ON s.seq = n.session
 WHERE ` + turnFilter + ` ORDER BY n.seq`
)

// PendingSessionTurns returns the turns of every branch of session that
// are not yet written to workspaceID, each once, in storage order: a
// parent always comes before its children (the schema keeps
// parent_seq < seq), so any prefix of the result holds the pending
// ancestors of each of its turns. It returns ErrSessionNotFound for an
// unknown session.
func (s *Store) PendingSessionTurns(session SessionKey, workspaceID string) ([]Node, error) {
	if workspaceID == "" {
		return nil, fmt.Errorf("pending turns: %w: empty workspace id", ErrInvalidArgument)
	}
	session = session.norm()
	var one int
	err := s.db.QueryRow(`SELECT 1 FROM sessions WHERE provider = ? AND id = ?`, session.Provider, session.Session).Scan(&one)
	if err == sql.ErrNoRows {
		return nil, fmt.Errorf("%w: %s", ErrSessionNotFound, session)
	}
	if err != nil {
		return nil, fmt.Errorf("pending turns of %s: %w", session, err)
	}
	rows, err := s.db.Query(pendingSessionTurnsQuery, sql.Named("provider", session.Provider),
		sql.Named("id", session.Session), sql.Named("ws", workspaceID))
	if err != nil {
		return nil, fmt.Errorf("pending turns of %s: %w", session, err)
	}
	defer rows.Close()
	var out []Node
	for rows.Next() {
		n, err := scanNode(rows)
		if err != nil {
			return nil, fmt.Errorf("pending turns of %s: %w", session, err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("pending turns of %s: %w", session, err)
	}
	return out, nil
}

// forgottenChunk bounds the ids of one query (SQLite's default limit on
// host parameters is 32,766; a smaller chunk keeps each statement cheap).
const forgottenChunk = 500

// AnyForgotten reports whether any of the given nodes is forgotten (see
// Node.Forgotten), in one query per session and chunk of ids rather than
// one per node: the writer asks it under the write lock for a whole batch.
// A key that is not stored is an error wrapping ErrNodeNotFound.
func (s *Store) AnyForgotten(keys []Key) (bool, error) {
	bySession := map[SessionKey][]string{}
	var order []SessionKey
	for _, k := range keys {
		k = k.norm()
		sk := k.SessionKey()
		if _, ok := bySession[sk]; !ok {
			order = append(order, sk)
		}
		bySession[sk] = append(bySession[sk], k.ID)
	}
	for _, sk := range order {
		ids := dedupeIDs(bySession[sk])
		for len(ids) > 0 {
			chunk := ids[:min(len(ids), forgottenChunk)]
			ids = ids[len(chunk):]
			args := []any{sk.Provider, sk.Session}
			for _, id := range chunk {
				args = append(args, id)
			}
			var present, forgotten int
			q := `SELECT count(*), coalesce(sum(json_type(n.metadata, '$.` + ForgottenKey + `') IS NOT NULL), 0)
 FROM sessions s JOIN nodes n ON n.session = s.seq
 WHERE s.provider = ? AND s.id = ? AND n.id IN (` + strings.TrimSuffix(strings.Repeat("?,", len(chunk)), ",") + `)`
			if err := s.db.QueryRow(q, args...).Scan(&present, &forgotten); err != nil {
				return false, fmt.Errorf("read nodes of %s: %w", sk, err)
			}
			if present < len(chunk) {
				return false, fmt.Errorf("%w: %d of %d node(s) of %s", ErrNodeNotFound, len(chunk)-present, len(chunk), sk)
			}
			if forgotten > 0 {
				return true, nil
			}
		}
	}
	return false, nil
}

func dedupeIDs(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
