package engine

import (
	"time"

	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"scriptorium/engine/index"
	"scriptorium/engine/sessions"
	"scriptorium/workspace"
	"scriptorium/workspace/topic"
)

// What a forget cleans outside the workspace files, after its install:
// earlier copies of the text in state.db (history bytes and diffs, pass
// diffs, events), proposals, runtime files, the sessions.db turns, and the
// search index; then both SQLite files are compacted so that no free page
// or write-ahead log frame keeps a byte of it.

// needles is what marks a stored copy of forgotten content.
type needles struct {
	// text is the content itself: record texts and contents, their block-
	// safe summaries, the text of removed blocks. Known only while the
	// forget runs.
	text []string
	// marks are ids only a copy of the content carries: citations of the
	// forgotten source-ids, their frame comments, the removed block ids and
	// footnote labels. They come from the ledger, so recovery has them.
	marks []string
	// ids are the forgotten source-ids themselves: too common to mark a
	// copy in state.db, but a runtime log or status line naming one is
	// about the forgotten record (scrubRuntime).
	ids []string
}

// minNeedle is the shortest text worth looking for: shorter strings match
// unrelated rows and would scrub them for nothing.
const minNeedle = 8

func (n *needles) addText(s string) {
	s = strings.TrimSpace(s)
	if len(s) >= minNeedle {
		n.text = append(n.text, s)
	}
}

// hit reports whether s holds a needle.
func (n needles) hit(s string) bool {
	for _, list := range [][]string{n.marks, n.text} {
		for _, x := range list {
			if strings.Contains(s, x) {
				return true
			}
		}
	}
	return false
}

func (n needles) hitBytes(b []byte) bool { return len(b) > 0 && n.hit(string(b)) }

// marksOf derives the marks from a ledger record.
func marksOf(rec *forgetRecord) needles {
	var n needles
	seen := map[string]bool{}
	for _, r := range rec.Records {
		if seen[r.SourceID] {
			continue
		}
		seen[r.SourceID] = true
		n.ids = append(n.ids, r.SourceID)
		n.marks = append(n.marks, "["+r.SourceID+"](", "<!-- source-id:"+r.SourceID+" -->")
	}
	for _, id := range rec.Blocks {
		n.marks = append(n.marks, "^"+id)
	}
	for _, l := range rec.Labels {
		n.marks = append(n.marks, "[^"+l+"]")
	}
	return n
}

// collectNeedles gathers the text and the marks of a forget plan.
func (fp *forgetPlan) collectNeedles(s *snapshot) needles {
	n := marksOf(&forgetRecord{Records: fp.removed, Blocks: fp.blocks, Labels: fp.labels})
	for _, t := range fp.targets {
		n.addText(t.view.Text)
		n.addText(t.view.Content)
		n.addText(topic.BlockSafe(t.view.Content))
		for _, line := range strings.Split(t.view.Content, "\n") {
			if len(strings.TrimSpace(line)) >= 2*minNeedle {
				n.addText(line)
			}
		}
	}
	for _, nd := range fp.nodes {
		n.ids = append(n.ids, nd.SourceID())
		n.addText(nd.Content)
		n.addText(topic.BlockSafe(nd.Content))
	}
	gone := map[string]bool{}
	for _, id := range fp.blocks {
		gone[id] = true
	}
	for _, p := range s.topicPaths {
		for _, b := range s.topics[p].file.Blocks() {
			if gone[b.BlockID] {
				n.addText(topic.BlockText(b))
			}
		}
	}
	return n
}

// finishForget does everything of a forget outside the file install. Each
// step is idempotent; the ledger row is marked done only when all of them
// succeeded, so an interrupted one is finished when the workspace opens.
func (e *Engine) finishForget(ctx context.Context, rev int64, rec *forgetRecord, nd needles) error {
	turns, err := e.forgetSessions(rec)
	if err != nil {
		return err
	}
	s, err := e.snapshot(ctx)
	if err != nil {
		return err
	}
	if _, err := e.writeDerived(s); err != nil {
		return err
	}
	if err := e.rebuildIndex(s); err != nil {
		return err
	}
	cleaned, err := e.scrubProposals(nd, true)
	if err != nil {
		return err
	}
	if n, err := e.scrubVectors(s); err != nil {
		return err
	} else if n > 0 {
		cleaned = append(cleaned, fmt.Sprintf("embeddings.db: %d vector(s) of texts no longer in memory", n))
	}
	rt, err := e.scrubRuntime(nd, true)
	if err != nil {
		return err
	}
	cleaned = append(cleaned, rt...)
	conn, err := e.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	// Zero what the scrub frees instead of leaving it in the pages' free
	// space (the VACUUM below would drop it too; this costs nothing).
	if _, err := conn.ExecContext(ctx, `PRAGMA secure_delete = ON`); err != nil {
		return err
	}
	defer conn.ExecContext(context.Background(), `PRAGMA secure_delete = OFF`)
	rows, err := scrubState(ctx, conn, rev, nd, true)
	if err != nil {
		return err
	}
	cleaned = append(cleaned, rows...)
	var prev string
	_ = conn.QueryRowContext(ctx, `SELECT cleaned FROM forgets WHERE revision = ?`, rev).Scan(&prev)
	var all []string
	_ = json.Unmarshal([]byte(prev), &all)
	doc, _ := json.Marshal(nonNil(append(all, cleaned...)))
	if _, err := conn.ExecContext(ctx, `UPDATE forgets SET turns = turns + ?, cleaned = ? WHERE revision = ?`,
		turns, string(doc), rev); err != nil {
		return err
	}
	if err := sessions.CompactConn(ctx, conn); err != nil {
		return fmt.Errorf("compact state.db: %w", err)
	}
	if _, err := conn.ExecContext(ctx, `UPDATE forgets SET done = 1 WHERE revision = ?`, rev); err != nil {
		return err
	}
	_, _ = conn.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	return nil
}

// forgetSessions blanks the selected sessions.db nodes and compacts the
// file; a workspace without sessions.db has none.
func (e *Engine) forgetSessions(rec *forgetRecord) (int, error) {
	path := workspace.SessionsDB(e.state)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	st, err := sessions.Open(path, nil)
	if err != nil {
		return 0, fmt.Errorf("open sessions.db: %w", err)
	}
	defer st.Close()
	n, err := st.Forget(sessionSelector(rec.Selector), rec.Time)
	if err != nil {
		return 0, err
	}
	if err := st.Compact(); err != nil {
		return n, fmt.Errorf("sessions.db: %w", err)
	}
	return n, nil
}

// rebuildIndex replaces the whole search index with a fresh build of s: a
// deleted document's terms would otherwise stay in its old segments.
func (e *Engine) rebuildIndex(s *snapshot) error {
	ix, err := e.openIndex()
	if err != nil {
		return err
	}
	defer ix.Close()
	docs := s.docsOf()
	list := make([]index.Doc, 0, len(docs))
	for _, d := range docs {
		list = append(list, d)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	if err := ix.Rebuild(list); err != nil {
		return Wrap(CodeIO, err, "rebuild search index")
	}
	e.indexRebuilds.Add(1)
	if err := ix.ApplyWithMeta(nil, nil, s.indexMeta(e.ws.Root(), time.Now())); err != nil {
		return Wrap(CodeIO, err, "rebuild search index")
	}
	return nil
}
