package sessions

import (
	"context"
	"database/sql"
	"fmt"
	"io"
)

// ImportBatch is one import of many files: a single write transaction of
// sessions.db that stores each file's turns as the file is added, so an
// importer holds one file in memory at a time, and that commits all of
// them or nothing. Each file is checked as Import checks one (see there and
// the package documentation); across files, a turn that repeats one of an
// earlier file is a duplicate, and a parent may come in any file of the
// batch: a turn whose parent is not stored yet waits for the end of the
// batch. A file's problems are collected, never returned by Add*: Commit
// reports every problem of every file in one *ImportError (LineError.File
// says which file) and then stores nothing.
//
// The transaction, and with it sessions.db's write lock, is taken when the
// first file is added, after that file has been read, and held until
// Commit or Rollback: add files that are at hand (a file read from stdin
// first). An ImportBatch is not safe for concurrent use.
type ImportBatch struct {
	s   *Store
	ctx context.Context
	tx  *sql.Tx
	// lastSeq is the greatest node seq before the batch: greater ones were
	// stored by it.
	lastSeq int64
	files   int // files added so far: the index of the next one
	bad     []LineError
	badKeys map[Key]bool // the keys of bad turns: their children are not reported again
	held    []record     // turns whose parent is not stored yet, and their descendants
	result  ImportResult
	touched map[SessionKey]bool
	err     error // the failure that ended the batch
	done    bool
	offsets []FileOffset // stored at Commit (offsets.go)
	// countTrigger holds the suspended insert triggers' definitions,
	// restored at Commit (import_counts.go); countChecked says they were
	// looked for.
	countTrigger []string
	countChecked bool
	parents      []int64 // stored nodes that gained a child: has_children at Commit
}

// BeginImport starts an import of one or more files. The batch must end
// with Commit or Rollback (Rollback after Commit does nothing).
func (s *Store) BeginImport(ctx context.Context) *ImportBatch {
	return &ImportBatch{s: s, ctx: ctx, badKeys: map[Key]bool{}, touched: map[SessionKey]bool{}}
}

// AddJSONL adds a file of SPEC §7 JSONL turns, read to its end (its lines
// are numbered from 1, a byte order mark before the first is ignored). The
// returned error is a read or database failure, which ends the batch; bad
// lines are kept for Commit.
func (b *ImportBatch) AddJSONL(r io.Reader) error {
	if b.err != nil {
		return b.err
	}
	file := b.nextFile()
	p, err := parseImport(r, maxLineBytes)
	if err != nil {
		return b.fail(err)
	}
	for i := range p.recs {
		p.recs[i].file = file
	}
	for i := range p.bad {
		p.bad[i].File = file
	}
	if p.stopped {
		// The file was not read to its end: checking the rest against the
		// store would only report parents and ids of unread lines.
		_, _, bad := dedupeFile(p.recs, p.bad)
		b.bad = append(b.bad, bad...)
		return nil
	}
	return b.add(p.recs, p.known, p.bad)
}

// AddNodes adds a file's turns handed over as nodes (a parsed transcript),
// in the file's order, parents anywhere. Each is checked as a JSONL line
// is: Provider and Tier default as there, the zero Time is a missing
// time, and Metadata, when set, must be a JSON object without the store's
// own keys. Thread and Written are ignored. A problem's LineError.Line is
// the node's position in nodes, from 1.
func (b *ImportBatch) AddNodes(nodes []Node) error {
	return b.addNodes(nodes, false)
}

func (b *ImportBatch) addNodes(nodes []Node, keep bool) error {
	if b.err != nil {
		return b.err
	}
	file := b.nextFile()
	known := map[Key]bool{}
	recs := make([]record, 0, len(nodes))
	var bad []LineError
	for i, n := range nodes {
		t, timeProblem := checkTime(n.Time)
		n.Time = t
		rec, problems := checkNode(n, timeProblem, known)
		for _, msg := range problems {
			bad = append(bad, LineError{Line: i + 1, File: file, Turn: Key{n.Provider, n.Session, n.ID}, Message: msg})
		}
		if len(problems) == 0 {
			rec.line, rec.file, rec.keep = i+1, file, keep
			recs = append(recs, rec)
		}
	}
	return b.add(recs, known, bad)
}

// AddChatNodes adds a chat export's turns as AddNodes does, under the chat
// policy: exports of a chat legitimately change between two imports (an
// edited message, a renamed sender, a deleted message that changes the next
// turn's parent, a message that was still downloading), so a turn whose key
// is stored already, or came in an earlier file of the batch, with
// different fields keeps what was stored and is counted in
// ImportResult.Changed instead of being a problem. Only the tier follows
// the import, and only on a node the writer has not archived yet
// (ImportResult.Retiered): the tier is the owner's choice, not the
// export's.
func (b *ImportBatch) AddChatNodes(nodes []Node) error {
	return b.addNodes(nodes, true)
}

// Problems is the number of problems found so far; turns held for a parent
// are counted only by Commit.
func (b *ImportBatch) Problems() int { return len(b.bad) }

// Commit settles the turns that waited for a parent and, if no file had a
// problem, commits the batch. An *ImportError lists every problem, and
// then nothing of any file is stored; other errors (the database's) do not
// repeat the word "import".
func (b *ImportBatch) Commit() (ImportResult, error) {
	if b.err != nil {
		return ImportResult{}, b.err
	}
	if b.done {
		return ImportResult{}, fmt.Errorf("commit: the batch has ended")
	}
	if len(b.held) > 0 {
		held := b.held
		b.held = nil
		recs, dups, bad := dedupeFile(held, nil)
		b.result.Duplicate += dups
		b.bad = append(b.bad, bad...)
		if err := b.store(recs, true); err != nil {
			return ImportResult{}, err
		}
	}
	if len(b.bad) > 0 {
		b.Rollback()
		return ImportResult{}, importError(b.bad)
	}
	if err := b.storeOffsets(); err != nil {
		return ImportResult{}, err
	}
	if b.countTrigger != nil {
		if err := resumeInsertTriggers(b.ctx, b.tx, b.countTrigger, b.parents, b.touched); err != nil {
			return ImportResult{}, b.fail(err)
		}
	}
	b.done = true
	if b.tx == nil { // nothing was read that needed the store
		return b.result, nil
	}
	if err := b.tx.Commit(); err != nil {
		return ImportResult{}, fmt.Errorf("commit: %w", err)
	}
	b.result.Sessions = len(b.touched)
	return b.result, nil
}

// Rollback ends the batch without storing anything.
func (b *ImportBatch) Rollback() {
	if b.tx != nil && !b.done {
		_ = b.tx.Rollback()
	}
	b.done = true
}

func (b *ImportBatch) nextFile() int {
	b.files++
	return b.files - 1
}

func (b *ImportBatch) fail(err error) error {
	b.Rollback()
	b.err = err
	return err
}

// add checks one file's valid turns (and its bad ones, already found) and
// stores what it can. known holds the key of every turn that had one.
func (b *ImportBatch) add(recs []record, known map[Key]bool, bad []LineError) error {
	valid := make(map[Key]bool, len(recs))
	for _, r := range recs {
		valid[r.key()] = true
	}
	for k := range known {
		if !valid[k] {
			b.badKeys[k] = true
		}
	}
	recs, dups, bad := dedupeFile(recs, bad)
	b.result.Duplicate += dups
	b.bad = append(b.bad, bad...)
	return b.store(recs, false)
}

// store checks turns against the store and inserts those it can: while
// the batch has a problem it inserts them anyway, so that later files are
// checked as they would be in one file, and Commit rolls them back.
func (b *ImportBatch) store(recs []record, final bool) error {
	if len(recs) == 0 {
		return nil
	}
	if err := b.begin(); err != nil {
		return b.fail(err)
	}
	plan, err := checkAgainstStore(b.ctx, b.tx, recs, func(k Key) bool { return b.badKeys[k] }, b.lastSeq, final)
	if err != nil {
		return b.fail(err)
	}
	b.bad = append(b.bad, plan.bad...)
	b.held = append(b.held, plan.held...)
	b.result.Duplicate += plan.duplicates
	b.result.Forgotten += plan.forgotten
	b.result.Changed += plan.changed
	b.result.Retiered += len(plan.retier)
	b.result.TierKept += plan.tierKept
	if err := retier(b.ctx, b.tx, plan.retier); err != nil {
		return b.fail(err)
	}
	if len(plan.fresh) > 0 && suspendCounts && !b.countChecked {
		b.countChecked = true
		if b.countTrigger, err = suspendInsertTriggers(b.ctx, b.tx); err != nil {
			return b.fail(err)
		}
	}
	outside, err := insertNodesFunc(b.ctx, b.tx, topoOrder(plan.fresh), plan.sessions)
	if err != nil {
		return b.fail(err)
	}
	b.parents = append(b.parents, outside...)
	b.result.Imported += len(plan.fresh)
	for _, r := range plan.fresh {
		b.touched[r.node.SessionKey()] = true
	}
	return nil
}

// begin takes the write transaction (BEGIN IMMEDIATE: see dsn).
func (b *ImportBatch) begin() error {
	if b.tx != nil {
		return nil
	}
	tx, err := b.s.db.BeginTx(b.ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	if err := tx.QueryRowContext(b.ctx, `SELECT coalesce(max(seq), 0) FROM nodes`).Scan(&b.lastSeq); err != nil {
		_ = tx.Rollback()
		return fmt.Errorf("begin transaction: %w", err)
	}
	b.tx = tx
	return nil
}
