package engine

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"scriptorium/trust"
	"scriptorium/workspace/archive"
)

// Forget is the owner's right to have memory lose something for good: every
// record of a source, a speaker or a thread, and everything made from them.
// Archived records become tombstones (the one sanctioned rewrite of the
// append-only archives), blocks that cite only forgotten sources are
// removed and the others lose those citations, the derived views and the
// search index are rebuilt without them, the sessions.db turns are blanked,
// and every earlier record of the text (history bytes and diffs, sleep pass
// diffs, events, proposals, runtime status files) is scrubbed, with the
// SQLite files compacted so no freed page keeps it. The ledger keeps who,
// when, what was selected and the SHA-256 of each removed record, never the
// content, and revert cannot bring it back.

// ForgetSelector chooses what Forget removes. Exactly one field is set.
type ForgetSelector struct {
	// Sources are source-ids.
	Sources []string `json:"sources,omitempty"`
	// Speaker is a trusted speaker id: every record a v2 frame attributes
	// to it (legacy speaker hints are never trusted, so never selected).
	Speaker string `json:"speaker,omitempty"`
	// Thread is <provider>/<thread>: every record of that thread and its
	// sessions.db session.
	Thread string `json:"thread,omitempty"`
}

// String names the selection in words: "speaker u456", "thread
// telegram/group-42", "source openprogram/s/1" or "3 sources".
func (s ForgetSelector) String() string {
	switch {
	case s.Speaker != "":
		return "speaker " + s.Speaker
	case s.Thread != "":
		return "thread " + s.Thread
	case len(s.Sources) == 1:
		return "source " + s.Sources[0]
	}
	return fmt.Sprintf("%d sources", len(s.Sources))
}

func (s ForgetSelector) check() error {
	n := 0
	if len(s.Sources) > 0 {
		n++
	}
	if s.Speaker != "" {
		n++
	}
	if s.Thread != "" {
		n++
		p, t, ok := strings.Cut(s.Thread, "/")
		if !ok || archive.ValidSegment(p) != nil || archive.ValidSegment(t) != nil {
			return Errorf(CodeInvalidArgument, "thread %q is not <provider>/<thread>", s.Thread)
		}
	}
	if n != 1 {
		return Errorf(CodeInvalidArgument, "forget needs exactly one of: source-ids, a speaker id, a thread")
	}
	for _, id := range s.Sources {
		if err := archive.ValidateSourceID(id); err != nil {
			return Errorf(CodeInvalidArgument, "%v", err)
		}
	}
	return nil
}

// ForgetChange is one place that holds the forgotten content and what
// forgetting does there, as a diff.
type ForgetChange struct {
	Path string `json:"path"`
	// Kind is archive, topic, derived, index, embeddings (vectors keyed by
	// the text's hash) or sessions; history (state.db rows), proposal and
	// runtime (status files and logs) name the other places an earlier
	// copy is scrubbed from.
	Kind string `json:"kind"`
	Diff string `json:"diff"`
}

// ForgetResult is what Forget removed, or would remove on a dry run.
type ForgetResult struct {
	// Sources are the source-ids whose records are forgotten.
	Sources []string       `json:"sources"`
	Changes []ForgetChange `json:"changes"`
	// Turns is the number of sessions.db nodes blanked.
	Turns int `json:"turns"`
	// Revision is the forget's own revision; absent on a dry run.
	Revision int64 `json:"revision,omitempty"`

	Blocks    []string `json:"-"` // block ids removed from topics
	Citations int      `json:"-"` // citations dropped from blocks that stay
	// Vectors counts the embeddings.db vectors of forgotten text (keyed by
	// its SHA-256) removed; in JSON it is the "embeddings" change's diff.
	Vectors int `json:"-"`
}

// forgetRecord is the ledger row of one forget: ids and hashes, never text.
type forgetRecord struct {
	Selector ForgetSelector    `json:"selector"`
	Time     time.Time         `json:"time"`
	Actor    string            `json:"actor"`
	Records  []forgottenRecord `json:"records"`
	Blocks   []string          `json:"blocks"` // block ids removed
	Labels   []string          `json:"labels"` // footnote labels removed
}

// forgottenRecord is one removed record: where it was and the SHA-256 of
// its bytes.
type forgottenRecord struct {
	SourceID string `json:"source_id"`
	Path     string `json:"path"`
	Line     int    `json:"line"`
	SHA256   string `json:"sha256"`
}

// forgetSchema is the forget ledger. done stays 0 until everything outside
// the file install (scrubbing, sessions.db, the index, compaction) is
// finished; opening the workspace finishes a forget that is not.
const forgetSchema = `CREATE TABLE forgets (
	id       INTEGER PRIMARY KEY AUTOINCREMENT,
	revision INTEGER NOT NULL UNIQUE,
	time     TEXT NOT NULL,
	actor    TEXT NOT NULL,
	selector TEXT NOT NULL,           -- JSON ForgetSelector
	records  TEXT NOT NULL,           -- JSON [{source_id, path, line, sha256}]
	blocks   TEXT NOT NULL,           -- JSON [block id]
	labels   TEXT NOT NULL,           -- JSON [footnote label]
	turns    INTEGER NOT NULL DEFAULT 0,
	cleaned  TEXT NOT NULL DEFAULT '[]', -- JSON [what else was scrubbed]
	done     INTEGER NOT NULL DEFAULT 0
)`

// Forget removes what sel selects (see the comment at the top of this
// file). With dryRun it only reports every place the content is and what
// would happen there. An unknown source-id is NOT_FOUND; a selection that
// holds nothing (left to forget) is INVALID_ARGUMENT. A forget that would
// leave the workspace invalid is REJECTED and changes nothing. After the
// install, what lies outside the workspace files is finished at once; if
// that fails part-way (IO), the install stands and the next open of the
// workspace finishes the rest.
func (e *Engine) Forget(ctx context.Context, sel ForgetSelector, dryRun bool) (ForgetResult, error) {
	res := ForgetResult{Sources: []string{}, Changes: []ForgetChange{}, Blocks: []string{}}
	if err := e.gate(trust.OpForget); err != nil {
		return res, err
	}
	if err := sel.check(); err != nil {
		return res, err
	}
	err := e.Locked(ctx, !e.opts.Interactive, func(tx *Tx) error {
		s, err := e.snapshot(ctx)
		if err != nil {
			return err
		}
		fp, err := e.planForget(ctx, s, sel)
		if err != nil {
			return err
		}
		ch := Change{Kind: "forget", Actor: trust.Owner, Edits: fp.edits, Archives: fp.archives,
			Sources: fp.sourceIDs(), forget: fp.record(e.opts.Now().UTC())}
		plan, err := e.plan(s, ch)
		if err != nil {
			return err
		}
		after := s.with(plan)
		if bad := introduced(s.violations(), after.violations()); len(bad) > 0 {
			return &Error{Code: CodeRejected, Violations: bad,
				Message: fmt.Sprintf("forget rejected: it would leave %d violation(s); nothing was changed", len(bad))}
		}
		res, err = e.forgetPreview(ctx, s, after, plan, fp)
		if err != nil || dryRun {
			return err
		}
		// Runtime files are scrubbed while the text is known, before the
		// install: a crash past it leaves recovery only the ids.
		if _, err := e.scrubRuntime(fp.needles, true); err != nil {
			return Wrap(CodeIO, err, "forget %s: scrub runtime files (the memory files were not changed)", sel)
		}
		rev, err := e.installForget(ctx, ch, plan)
		if err != nil {
			return err
		}
		res.Revision = rev
		e.crashPoint(ForgetCleanupCrashPoint)
		if err := e.finishForget(ctx, rev, ch.forget, fp.needles); err != nil {
			return Wrap(CodeIO, err, "forgot %s at revision %d, but cleaning up outside the files is not finished "+
				"(it is finished when the workspace is next opened)", sel, rev)
		}
		return nil
	})
	return res, err
}

// installForget installs the forget's file changes and returns its
// revision. A forget that only blanks sessions.db turns (records never
// archived) changes no file, but it is still a revision of its own with a
// history row and a ledger row, so its clean-up is recorded and resumable.
func (e *Engine) installForget(ctx context.Context, ch Change, plan *txPlan) (int64, error) {
	if len(plan.order) > 0 {
		out, err := e.installLocked(ctx, ch)
		return out.Revision, err
	}
	rev, err := e.revision()
	if err != nil {
		return 0, err
	}
	hist := historyRecord{Revision: rev + 1, Time: e.opts.Now().UTC(), Actor: string(trust.Owner), Kind: "forget",
		Changed: []string{}, Diffs: map[string]string{}, Sources: ch.Sources}
	empty := &txPlan{files: map[string][]byte{}, old: map[string][]byte{}, forget: ch.forget}
	if err := e.commit(ctx, empty, hist); err != nil {
		return 0, err
	}
	return rev + 1, nil
}

// ForgetCleanupCrashPoint is the test-only crash point between a forget's
// install and its clean-up outside the files (see Options.CrashAt).
const ForgetCleanupCrashPoint = "forget-installed"

// recordHistory writes an install's history row and, for a forget, its
// ledger row. Both are idempotent, so recovery may replay them.
func (e *Engine) recordHistory(ctx context.Context, h historyRecord, f *forgetRecord) error {
	if err := insertHistory(ctx, e.db, h); err != nil {
		return err
	}
	if f == nil {
		return nil
	}
	sel, _ := json.Marshal(f.Selector)
	recs, _ := json.Marshal(f.Records)
	blocks, _ := json.Marshal(nonNil(f.Blocks))
	labels, _ := json.Marshal(nonNil(f.Labels))
	_, err := e.db.ExecContext(ctx, `INSERT OR IGNORE INTO forgets (revision, time, actor, selector, records, blocks, labels)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, h.Revision, f.Time.UTC().Format(time.RFC3339), f.Actor,
		string(sel), string(recs), string(blocks), string(labels))
	if err != nil {
		return fmt.Errorf("record forget: %w", err)
	}
	return nil
}

// ForgetEntry is one row of the forget ledger.
type ForgetEntry struct {
	Revision int64          `json:"revision"`
	Time     string         `json:"time"`
	Actor    string         `json:"actor"`
	Selector ForgetSelector `json:"selector"`
	// Records are the removed records with the SHA-256 of their bytes.
	Records []ForgetRecordHash `json:"records"`
	Turns   int                `json:"turns"`
	// Cleaned names what else was scrubbed of the text: history rows,
	// sleep passes, events, proposals, runtime files.
	Cleaned []string `json:"cleaned"`
	Done    bool     `json:"done"`
}

// ForgetRecordHash is one removed record of the ledger.
type ForgetRecordHash struct {
	SourceID string `json:"source_id"`
	Path     string `json:"path"`
	SHA256   string `json:"sha256"`
}

// Forgets lists the forget ledger, newest first.
func (e *Engine) Forgets(ctx context.Context) ([]ForgetEntry, error) {
	if err := e.gate(trust.OpHistory); err != nil {
		return nil, err
	}
	rows, err := e.db.QueryContext(ctx, `SELECT revision, time, actor, selector, records, turns, cleaned, done
		FROM forgets ORDER BY revision DESC`)
	if err != nil {
		return nil, Wrap(CodeIO, err, "read the forget ledger")
	}
	defer rows.Close()
	out := []ForgetEntry{}
	for rows.Next() {
		var f ForgetEntry
		var sel, recs, cleaned string
		if err := rows.Scan(&f.Revision, &f.Time, &f.Actor, &sel, &recs, &f.Turns, &cleaned, &f.Done); err != nil {
			return nil, Wrap(CodeIO, err, "read the forget ledger")
		}
		_ = json.Unmarshal([]byte(sel), &f.Selector)
		_ = json.Unmarshal([]byte(recs), &f.Records)
		_ = json.Unmarshal([]byte(cleaned), &f.Cleaned)
		if f.Records == nil {
			f.Records = []ForgetRecordHash{}
		}
		f.Cleaned = nonNil(f.Cleaned)
		out = append(out, f)
	}
	return out, rows.Err()
}

// forgetUnfinished reports whether a forget's clean-up is still owed.
func (e *Engine) forgetUnfinished() bool {
	var n int
	err := e.db.QueryRow(`SELECT count(*) FROM forgets WHERE done = 0`).Scan(&n)
	return err == nil && n > 0
}

// finishForgets completes every forget whose clean-up a crash interrupted.
// The forgotten text is gone from the files by then, so the scrub works
// from the ledger's ids alone (source-ids, block ids, footnote labels).
func (e *Engine) finishForgets(ctx context.Context) error {
	rows, err := e.db.QueryContext(ctx, `SELECT revision, time, actor, selector, records, blocks, labels FROM forgets WHERE done = 0`)
	if err != nil {
		return err
	}
	type todo struct {
		rev int64
		rec *forgetRecord
	}
	var list []todo
	for rows.Next() {
		var rev int64
		var tm, sel, recs, blocks, labels string
		rec := &forgetRecord{}
		if err := rows.Scan(&rev, &tm, &rec.Actor, &sel, &recs, &blocks, &labels); err != nil {
			rows.Close()
			return err
		}
		rec.Time, _ = time.Parse(time.RFC3339, tm)
		_ = json.Unmarshal([]byte(sel), &rec.Selector)
		_ = json.Unmarshal([]byte(recs), &rec.Records)
		_ = json.Unmarshal([]byte(blocks), &rec.Blocks)
		_ = json.Unmarshal([]byte(labels), &rec.Labels)
		list = append(list, todo{rev, rec})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	sort.Slice(list, func(i, j int) bool { return list[i].rev < list[j].rev })
	for _, t := range list {
		if err := e.finishForget(ctx, t.rev, t.rec, marksOf(t.rec)); err != nil {
			return fmt.Errorf("finish the forget of revision %d: %w", t.rev, err)
		}
	}
	return nil
}

// scrubbedBy returns the forget revision that scrubbed a history row's
// recorded bytes, or 0.
func scrubbedBy(ctx context.Context, db *sql.DB, rev int64) int64 {
	var by int64
	_ = db.QueryRowContext(ctx, `SELECT scrubbed_by FROM history WHERE revision = ?`, rev).Scan(&by)
	return by
}
