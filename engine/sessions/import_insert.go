package sessions

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"

	"scriptorium/workspace/archive"
)

// The insert of an import's new nodes. A bulk import stores tens of
// thousands of turns per file, so the per-row costs that are not SQLite's
// own B-tree work are paid per group of rows: one multi-row INSERT, and
// seq and parent_seq computed here instead of by a subquery per row.

const (
	insertSessionQuery = `INSERT INTO sessions(provider, id, thread, thread_key, first_time, last_time)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING seq`
	widenSessionQuery = `UPDATE sessions SET first_time = min(first_time, ?2), last_time = max(last_time, ?3) WHERE seq = ?1`
	// maxSeqQuery is the largest seq stored: SQLite gives a new row of
	// an INTEGER PRIMARY KEY table without AUTOINCREMENT the largest rowid
	// plus one, so numbering the rows from it stores the seq SQLite would.
	maxSeqQuery = `SELECT coalesce(max(seq), 0) FROM nodes`
	// parentSeqQuery finds a parent stored before this insert (an earlier
	// file, chunk or import) in the node's own session.
	parentSeqQuery = `SELECT seq FROM nodes WHERE session = ? AND id = ?`
)

// insertGroupRows is how many nodes one INSERT statement stores: the
// driver's call, its argument checks and SQLite's statement start and end
// are paid once per group. 32 rows of 15 values stay far below SQLite's
// limit of bound variables (32,766).
const insertGroupRows = 32

// nodeValues is the number of values bound per node row.
const nodeValues = 15

// insertNodesQuery stores rows nodes. The nodes_has_children trigger marks
// a stored parent; has_children is bound 1 for a node whose child comes in
// the same insert already, so that the trigger finds nothing to do: its
// update would rewrite the parent's whole row, text included, once per
// child. The parameters are anonymous: the driver looks a numbered one up
// by its name, a C string copied into Go and parsed per value.
func insertNodesQuery(rows int) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO nodes(seq, session, id, parent, parent_seq, role, content, speaker_id, speaker_display, time, tier, grp, synthetic, metadata, has_children) VALUES `)
	for i := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	}
	return b.String()
}

// insertNodesFunc is insertNodes; a test puts the per-row insert in its
// place to compare the stores the two leave.
var insertNodesFunc = insertNodes

// nodeRef is a node by its session's seq and its id.
type nodeRef struct {
	session int64
	id      string
}

// insertNodes stores new records, which must come parents first, creating
// or widening their sessions. The rows stored are those one INSERT per
// node with a parent_seq subquery stored: the same seq, values and order.
// It returns the seqs of the parents stored before (not among recs), which
// gain children: the nodes_has_children trigger's work while it is
// suspended (import_counts.go).
func insertNodes(ctx context.Context, tx *sql.Tx, recs []record, sessions map[SessionKey]*sessionPlan) ([]int64, error) {
	if len(recs) == 0 {
		return nil, nil
	}
	times := make([]string, len(recs))
	type span struct{ first, last string }
	spans := map[SessionKey]*span{}
	var order []SessionKey
	for i, r := range recs {
		ts := formatTime(r.node.Time)
		times[i] = ts
		sk := r.node.SessionKey()
		sp, ok := spans[sk]
		if !ok {
			spans[sk] = &span{ts, ts}
			order = append(order, sk)
			continue
		}
		sp.first, sp.last = min(sp.first, ts), max(sp.last, ts)
	}
	for _, sk := range order {
		sp, plan := spans[sk], sessions[sk]
		if plan.seq != 0 {
			if _, err := tx.ExecContext(ctx, widenSessionQuery, plan.seq, sp.first, sp.last); err != nil {
				return nil, fmt.Errorf("store session %s: %w", sessionName(sk), err)
			}
			continue
		}
		if err := tx.QueryRowContext(ctx, insertSessionQuery, sk.Provider, sk.Session, plan.thread,
			archive.FoldKey(plan.thread), sp.first, sp.last).Scan(&plan.seq); err != nil {
			return nil, fmt.Errorf("store session %s: %w", sessionName(sk), err)
		}
	}

	var last int64
	if err := tx.QueryRowContext(ctx, maxSeqQuery).Scan(&last); err != nil {
		return nil, fmt.Errorf("store nodes: %w", err)
	}
	if last > math.MaxInt64-int64(len(recs)) {
		return nil, fmt.Errorf("store nodes: node numbers exhausted (%d)", last)
	}
	rows, outside, err := nodeRows(ctx, tx, recs, times, sessions, last)
	if err != nil {
		return nil, err
	}

	full, err := tx.PrepareContext(ctx, insertNodesQuery(insertGroupRows))
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	defer full.Close()
	for i := 0; i < len(recs); i += insertGroupRows {
		j := min(i+insertGroupRows, len(recs))
		stmt := full
		if j-i < insertGroupRows {
			if stmt, err = tx.PrepareContext(ctx, insertNodesQuery(j-i)); err != nil {
				return nil, fmt.Errorf("prepare: %w", err)
			}
			defer stmt.Close()
		}
		if _, err := stmt.ExecContext(ctx, rows[i*nodeValues:j*nodeValues]...); err != nil {
			return nil, insertError(ctx, tx, recs[i:j], rows[i*nodeValues:j*nodeValues], err)
		}
	}
	return outside, nil
}

// nodeRows returns the values of every record's row, nodeValues each, the
// records numbered from last+1 in order, and the seqs of the parents
// stored before.
func nodeRows(ctx context.Context, tx *sql.Tx, recs []record, times []string, sessions map[SessionKey]*sessionPlan, last int64) ([]any, []int64, error) {
	// Every record is inserted or the transaction fails, so a parent whose
	// child is among them has children by the commit.
	sessSeq := make([]int64, len(recs))
	var prevKey SessionKey
	var prevSeq int64
	for i, r := range recs {
		if sk := r.node.SessionKey(); i == 0 || sk != prevKey {
			prevKey, prevSeq = sk, sessions[sk].seq
		}
		sessSeq[i] = prevSeq
	}
	seqs := make(map[nodeRef]int64, len(recs))
	hasChild := make(map[nodeRef]bool, len(recs))
	for i, r := range recs {
		seqs[nodeRef{sessSeq[i], r.node.ID}] = last + 1 + int64(i)
		if r.node.Parent != "" {
			hasChild[nodeRef{sessSeq[i], r.node.Parent}] = true
		}
	}
	var lookup *sql.Stmt
	defer func() {
		if lookup != nil {
			lookup.Close()
		}
	}()
	rows := make([]any, 0, len(recs)*nodeValues)
	var outside []int64
	for i, r := range recs {
		n := r.node
		var parent, parentSeq any // NULL for a root
		if n.Parent != "" {
			parent = n.Parent
			ref := nodeRef{sessSeq[i], n.Parent}
			// A parent among recs comes first (topoOrder), so its seq is
			// smaller; any other was stored before this insert.
			ps, ok := seqs[ref]
			if !ok || ps > last+int64(i) {
				ps = 0
				if lookup == nil {
					var err error
					if lookup, err = tx.PrepareContext(ctx, parentSeqQuery); err != nil {
						return nil, nil, fmt.Errorf("prepare: %w", err)
					}
				}
				err := lookup.QueryRowContext(ctx, ref.session, ref.id).Scan(&ps)
				switch {
				case err == sql.ErrNoRows:
					// NULL: the insert fails the parent check, as before.
				case err != nil:
					return nil, nil, fmt.Errorf("store node %s (line %d): %w", n.Key(), r.line, err)
				}
				if ps != 0 {
					outside = append(outside, ps)
				}
			}
			if ps != 0 {
				parentSeq = ps
			}
		}
		rows = append(rows, last+1+int64(i), sessSeq[i], n.ID, parent, parentSeq, n.Role, n.Content,
			n.SpeakerID, n.SpeakerDisplay, times[i], n.Tier, n.Group, n.Synthetic, string(n.Metadata),
			hasChild[nodeRef{sessSeq[i], n.ID}])
	}
	return rows, outside, nil
}

// insertError names the node of a group whose insert failed: SQLite undid
// the failed statement alone, so the group's rows are tried again one at a
// time until one fails. The transaction is rolled back by the caller.
func insertError(ctx context.Context, tx *sql.Tx, recs []record, rows []any, groupErr error) error {
	one, err := tx.PrepareContext(ctx, insertNodesQuery(1))
	if err != nil {
		return fmt.Errorf("store node %s (line %d): %w", recs[0].node.Key(), recs[0].line, groupErr)
	}
	defer one.Close()
	for k, r := range recs {
		if _, err := one.ExecContext(ctx, rows[k*nodeValues:(k+1)*nodeValues]...); err != nil {
			return fmt.Errorf("store node %s (line %d): %w", r.node.Key(), r.line, err)
		}
	}
	return fmt.Errorf("store node %s (line %d): %w", recs[0].node.Key(), recs[0].line, groupErr)
}
