package sessions

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"scriptorium/workspace/archive"
)

// Forgetting is the one change a stored node's fields ever see: the owner's
// forget (engine.Forget) blanks what a node said and marks it, so the writer
// never owes it again and an import of the same transcript does not bring it
// back. The node itself stays: its children's parent links and the written
// markers of the branch keep working.

// ForgottenKey is the metadata key of a forgotten node; its value is the
// time (RFC 3339 UTC) it was forgotten.
const ForgottenKey = "memory_forgotten_scriptorium"

// ErrBusy is returned by Compact when another connection kept the write-
// ahead log from being emptied; trying again later finishes the job.
var ErrBusy = errors.New("sessions.db is in use: its write-ahead log could not be emptied")

// Selector names the nodes Forget blanks. Exactly one field is set.
type Selector struct {
	// SourceIDs are node source-ids, <provider>/<thread>/<message-id>
	// (Node.SourceID).
	SourceIDs []string
	// SpeakerID selects every node whose sender had this speaker id.
	SpeakerID string
	// Thread is <provider>/<thread>: every node of that session.
	Thread string
}

// Forgotten reports whether the node was forgotten.
func (n Node) Forgotten() bool {
	var meta map[string]json.RawMessage
	if json.Unmarshal(n.Metadata, &meta) != nil {
		return false
	}
	_, ok := meta[ForgottenKey]
	return ok
}

// notForgotten is the condition that leaves forgotten nodes out.
const notForgotten = ` AND json_extract(n.metadata, '$.` + ForgottenKey + `') IS NULL`

// where turns a selector into query conditions, one query per condition.
func (sel Selector) where() ([]string, [][]any, error) {
	var conds []string
	var args [][]any
	set := 0
	if len(sel.SourceIDs) > 0 {
		set++
		for _, id := range sel.SourceIDs {
			provider, thread, msg, err := archive.ParseSourceID(id)
			if err != nil {
				return nil, nil, err
			}
			conds = append(conds, `s.provider = ? AND s.thread = ? AND n.id = ?`)
			args = append(args, []any{provider, thread, msg})
		}
	}
	if sel.SpeakerID != "" {
		set++
		conds = append(conds, `n.speaker_id = ?`)
		args = append(args, []any{sel.SpeakerID})
	}
	if sel.Thread != "" {
		set++
		provider, thread, ok := strings.Cut(sel.Thread, "/")
		if !ok || provider == "" || thread == "" {
			return nil, nil, fmt.Errorf("thread %q is not <provider>/<thread>", sel.Thread)
		}
		conds = append(conds, `s.provider = ? AND s.thread = ?`)
		args = append(args, []any{provider, thread})
	}
	if set != 1 {
		return nil, nil, errors.New("a selector names source-ids, a speaker id or a thread: exactly one")
	}
	return conds, args, nil
}

// Forgettable returns the nodes Forget would blank, in insertion order:
// the selected nodes not forgotten yet.
func (s *Store) Forgettable(sel Selector) ([]Node, error) {
	return selectNodes(context.Background(), s.db, sel)
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func selectNodes(ctx context.Context, q querier, sel Selector) ([]Node, error) {
	conds, args, err := sel.where()
	if err != nil {
		return nil, err
	}
	seen := map[Key]bool{}
	var out []Node
	for i, cond := range conds {
		rows, err := q.QueryContext(ctx, `SELECT `+nodeColumns+` FROM sessions s JOIN nodes n ON n.session = s.seq
 WHERE `+cond+notForgotten+` ORDER BY n.seq`, args[i]...)
		if err != nil {
			return nil, fmt.Errorf("select nodes to forget: %w", err)
		}
		for rows.Next() {
			n, err := scanNode(rows)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("select nodes to forget: %w", err)
			}
			if !seen[n.Key()] {
				seen[n.Key()] = true
				out = append(out, n)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("select nodes to forget: %w", err)
		}
	}
	return out, nil
}

// Forget blanks the selected nodes in one transaction: content and speaker
// display become empty, and the metadata keeps only the written marker and
// gains ForgottenKey = at. It returns how many nodes it blanked (nodes
// forgotten before are not counted). The old bytes may still sit in free
// pages and the write-ahead log until Compact.
func (s *Store) Forget(sel Selector, at time.Time) (int, error) {
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return 0, fmt.Errorf("forget: %w", err)
	}
	defer conn.Close()
	// Overwrite deleted content with zeros as SQLite frees it, rather than
	// leaving it in the page's free space until a VACUUM.
	if _, err := conn.ExecContext(ctx, `PRAGMA secure_delete = ON`); err != nil {
		return 0, fmt.Errorf("forget: %w", err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("forget: %w", err)
	}
	defer tx.Rollback()
	nodes, err := selectNodes(ctx, tx, sel)
	if err != nil {
		return 0, err
	}
	stamp := formatTime(at)
	for _, n := range nodes {
		k := n.Key().norm()
		if _, err := tx.ExecContext(ctx, `UPDATE nodes SET content = '', speaker_display = '',
			metadata = CASE WHEN written IS NULL THEN json_object(?1, ?2)
				ELSE json_object('`+MarkerKey+`', written, ?1, ?2) END
			WHERE session = (SELECT seq FROM sessions WHERE provider = ?3 AND id = ?4) AND id = ?5`,
			ForgottenKey, stamp, k.Provider, k.Session, k.ID); err != nil {
			return 0, fmt.Errorf("forget node %s: %w", k, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("forget: commit: %w", err)
	}
	return len(nodes), nil
}

// Compact rewrites the database file without free pages and empties the
// write-ahead log, so no byte of a forgotten node is left on disk. It
// returns ErrBusy when a reader elsewhere kept the log from being emptied.
func (s *Store) Compact() error {
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	defer conn.Close()
	return CompactConn(ctx, conn)
}

// CompactConn is Compact on one connection of any SQLite database in WAL
// mode (state.db uses it too): checkpoint, VACUUM, checkpoint again, each
// checkpoint truncating the log to zero bytes.
func CompactConn(ctx context.Context, conn *sql.Conn) error {
	if err := checkpoint(ctx, conn); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, `VACUUM`); err != nil {
		return fmt.Errorf("compact: vacuum: %w", err)
	}
	return checkpoint(ctx, conn)
}

// checkpoint copies the log into the database and truncates it, retrying
// for a while when readers hold it.
func checkpoint(ctx context.Context, conn *sql.Conn) error {
	for try := 0; ; try++ {
		var busy, logFrames, done int
		if err := conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &done); err != nil {
			return fmt.Errorf("compact: checkpoint: %w", err)
		}
		if busy == 0 {
			return nil
		}
		if try == 20 {
			return ErrBusy
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
