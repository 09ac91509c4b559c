package writer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/model"
	"scriptorium/engine/result"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer/distill"
	"scriptorium/errcode"
	"scriptorium/render"
	"scriptorium/trust"
	"scriptorium/workspace"
	"scriptorium/workspace/archive"
)

// WriteThreshold is how many o200k tokens of pending turns make a write
// worth one model call (SPEC §7).
const WriteThreshold = 16000

// WriteOptions configures Write.
type WriteOptions struct {
	// Force writes until nothing is pending (session end, idle watcher,
	// `write --force`); without it a branch whose pending turns reach
	// WriteThreshold gets one batch, the first turns up to the threshold.
	Force bool
	// Session limits the write to one session id; "" means every session.
	Session string
	// Provider, with Session, limits the write to that provider's session
	// (chats number sessions per provider); "" matches any provider.
	Provider string
}

// WriteResult is what Write did.
type WriteResult struct {
	Batches  int   `json:"batches"`
	Revision int64 `json:"revision"`
	// CoreProposal is the id of the core.md proposal this write stored
	// for the owner (the standing preferences it filed), "" when none.
	CoreProposal string `json:"core_proposal,omitempty"`
}

// Write runs the writer (SPEC §7). Nothing owed is a silent success. A
// failure is an *Error whose Code and Retryable() are the WriteFailure of
// the spec: LOCK_BUSY and MODEL_UNAVAILABLE may succeed later; MODEL_AUTH,
// MODEL_CONFIG, MODEL_OUTPUT_INVALID and REJECTED will not. The writer is a
// background writer: it waits at most 1 s for the lock.
func Write(ctx context.Context, e *engine.Engine, opts WriteOptions) (res WriteResult, err error) {
	if err := e.Authorize(trust.OpWrite); err != nil {
		return res, err
	}
	return newWriter(e).write(ctx, opts)
}

// write is Write with this writer.
func (w *writer) write(ctx context.Context, opts WriteOptions) (res WriteResult, err error) {
	defer func() { w.recordWriterOutcome(ctx, res, err) }()
	if !fileExists(w.sessionsPath()) {
		// No conversations yet: nothing is owed, and nothing is created.
		if opts.Session != "" {
			return w.withRevision(res), errcode.Errorf(errcode.NotFound, "no session %q: sessions.db does not exist yet", opts.Session)
		}
		return w.withRevision(res), nil
	}
	store, err := w.sessionStore()
	if err != nil {
		return res, err
	}
	defer store.Close()
	sess, err := store.Sessions()
	if err != nil {
		return res, errcode.Wrap(errcode.IO, err, "sessions.db")
	}
	found := opts.Session == ""
	// handle writes one session the way every write does and files its
	// outcome; stop is an error that ends the whole run.
	handle := func(k sessions.SessionKey) (stop error) {
		n, err := w.writeSession(ctx, store, k, opts.Force)
		res.Batches += n
		switch {
		case err == nil:
			if n > 0 || opts.Force {
				w.written = append(w.written, k)
			}
		case sessionLocal(ctx, err):
			w.failed = append(w.failed, sessionFailure{key: k, err: errcode.As(err)})
		default:
			return err
		}
		return nil
	}
	g := w.newGrouper(ctx, store, opts.Force, handle)
	for _, s := range sess {
		if opts.Session != "" && (s.ID != opts.Session || opts.Provider != "" && s.Provider != opts.Provider) {
			continue
		}
		found = true
		if err := g.add(s.Key()); err != nil {
			return w.withRevision(res), err
		}
	}
	if err := g.flush(); err != nil {
		return w.withRevision(res), err
	}
	res.Batches += g.batches
	if !found {
		return res, errcode.Errorf(errcode.NotFound, "no session %q in sessions.db", opts.Session)
	}
	// Without a batch, only queued candidates can be proposed.
	res.CoreProposal = w.proposeCore(ctx)
	if len(w.failed) > 0 {
		return w.withRevision(res), w.failedError()
	}
	return w.withRevision(res), nil
}

// writer is one run of the writer on an open engine.
type writer struct {
	e *engine.Engine
	// written are the sessions this run left with nothing owed or wrote a
	// batch of; failed are those it could not write (see failures.go).
	written []sessions.SessionKey
	failed  []sessionFailure
	// core are the blocks this run wrote from the owner's standing
	// preferences and instructions: the core.md proposal's candidates.
	core []coreBlock
	// turnBlocks, when set, is the offline writer instead of the
	// distiller: tests use the old writer's one block per turn to make
	// memory for Redistill.
	turnBlocks func(*engine.Engine, *engine.View, []distillRecord) []result.Edit
	// merger outlives each install's filer: a forced write merges batch
	// after batch against the same growing files, and the stems of a
	// block's text are a pure function of it, so each is read once a run.
	merger *distill.Merger
	// summaries index the sessions' summary blocks by thread for the run
	// (threadsum.go), nil until a write first needs one.
	summaries map[string]distill.Block
	// owner is what this run calls the owner (ownerName), nil until read.
	owner *string
}

func newWriter(e *engine.Engine) *writer { return &writer{e: e} }

func (w *writer) withRevision(res WriteResult) WriteResult {
	if rev, err := w.e.Revision(); err == nil {
		res.Revision = rev
	}
	return res
}

func (w *writer) sessionsPath() string { return workspace.SessionsDB(w.e.StateDir()) }

// sessionStore opens <state>/sessions.db.
func (w *writer) sessionStore() (*sessions.Store, error) {
	st, err := sessions.Open(w.sessionsPath(), nil)
	if err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "open sessions.db")
	}
	return st, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// writeSession writes the pending turns of one session, all its branches
// together: one batch (and one install) per WriteThreshold tokens of the
// session, never one per branch, so a chat whose turns have no parent
// (every turn its own branch) costs what the same turns chained do. The
// turns come in storage order, parents before children, so the markers of
// a batch never hide a pending turn of a later one.
func (w *writer) writeSession(ctx context.Context, store *sessions.Store, session sessions.SessionKey, force bool) (int, error) {
	batches := 0
	// turns is what is still owed after the batches written so far: the
	// markers of a batch are a prefix of it, so the rest needs no second
	// walk of a long session. It is read again when it runs out (turns
	// imported meanwhile) or a turn was forgotten meanwhile.
	var turns []sessions.Node
	fresh := false
	for {
		if len(turns) == 0 || !fresh {
			var err error
			if turns, err = store.PendingSessionTurns(session, w.e.WorkspaceID()); err != nil {
				return batches, errcode.Wrap(errcode.IO, err, "session %s", sessionName(session))
			}
			fresh = true
		}
		batch, quarantine, skip := splitBatch(turns, force)
		if len(batch) == 0 && len(quarantine) == 0 && len(skip) == 0 {
			break
		}
		mark := markable(turns, batch)
		err := w.writeBatch(ctx, store, batch, quarantine, mark)
		if errors.Is(err, errForgottenMeanwhile) {
			fresh = false // read the session again: forgotten turns are no longer pending
			continue
		}
		if err != nil {
			return batches, err
		}
		turns = turns[len(mark):]
		if len(turns) == 0 {
			fresh = false
		}
		if len(batch) > 0 {
			batches++
		}
		// Without force one batch is all a call owes (SPEC §7: the first
		// turns up to the threshold, not the whole backlog).
		if !force {
			break
		}
	}
	return batches, nil
}

// splitBatch routes pending turns by trust: unpaired direct messages never
// enter memory (skip: only marked), unpaired group messages are archived at
// once as pending sources (quarantine), owner and paired turns accumulate
// until WriteThreshold tokens and then the first turns up to it are
// written (batch). Without force a batch below the threshold waits, but
// quarantine is always archived so no unpaired group message waits for
// review behind the threshold.
func splitBatch(turns []sessions.Node, force bool) (batch, quarantine, skip []sessions.Node) {
	batch, quarantine, skip, _ = splitBatchTokens(turns, force)
	return batch, quarantine, skip
}

// splitBatchTokens is splitBatch that also returns the batch's tokens, so
// the grouper does not count every turn a second time.
func splitBatchTokens(turns []sessions.Node, force bool) (batch, quarantine, skip []sessions.Node, tokens int) {
	var trusted []sessions.Node
	for _, n := range turns {
		switch {
		case n.Tier == sessions.TierUnpaired && n.Group:
			quarantine = append(quarantine, n)
		case n.Tier == sessions.TierUnpaired:
			skip = append(skip, n)
		default:
			trusted = append(trusted, n)
		}
	}
	total := 0
	for i, n := range trusted {
		cost := render.CountTokens(turnLine(n))
		if total+cost > WriteThreshold && i > 0 {
			return trusted[:i], quarantine, skip, total
		}
		total += cost
	}
	if force || total >= WriteThreshold {
		return trusted, quarantine, skip, total
	}
	return nil, quarantine, skip, 0
}

// markable returns the ids of the pending turns that may be marked written
// once batch is installed: every turn before the first trusted turn left
// out of the batch. A marker further on would hide that turn for good,
// because the pending walk stops at the newest marker of the branch; the
// unpaired turns after it are archived (appends de-duplicate) or skipped
// again and marked with a later batch.
func markable(turns, batch []sessions.Node) []sessions.Key {
	inBatch := map[sessions.Key]bool{}
	for _, n := range batch {
		inBatch[n.Key()] = true
	}
	var keys []sessions.Key
	for _, n := range turns {
		if n.Tier != sessions.TierUnpaired && !inBatch[n.Key()] {
			break
		}
		keys = append(keys, n.Key())
	}
	return keys
}

// writerTurn is one line of the writer protocol (SPEC §7).
type writerTurn struct {
	Ref     string `json:"ref"`
	Speaker string `json:"speaker,omitempty"`
	Content string `json:"content"`
}

// turnLine encodes one turn as one physical JSONL line. encoding/json
// escapes control characters and U+2028/U+2029, so a line break inside the
// content can never end the line; HTML escaping is off so content reads as
// written. Only the runtime speaker fields make the speaker.
func turnLine(n sessions.Node) string {
	t := writerTurn{Ref: sourceIDOf(n), Content: n.Content,
		Speaker: archive.SpeakerLabel(n.SpeakerDisplay, n.SpeakerID)}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(t)
	return strings.TrimSuffix(buf.String(), "\n")
}

func sourceIDOf(n sessions.Node) string { return n.SourceID() }

func recordOfNode(n sessions.Node, pending bool) archive.Record {
	return archive.Record{SourceID: sourceIDOf(n), Role: n.Role, SpeakerID: n.SpeakerID,
		SpeakerDisplay: n.SpeakerDisplay, Time: n.Time.UTC(), Content: n.Content, Pending: pending}
}

// writeBatch archives and distils one batch in a single install, then
// marks the nodes mark names written. Markers are set only when the
// install succeeded.
func (w *writer) writeBatch(ctx context.Context, store *sessions.Store, batch, quarantine []sessions.Node, mark []sessions.Key) error {
	var recs []archive.Record
	for _, n := range quarantine {
		recs = append(recs, recordOfNode(n, true))
	}
	for _, n := range batch {
		recs = append(recs, recordOfNode(n, false))
	}
	// The archive keeps conversation order, whatever the trust routing.
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Time.Before(recs[j].Time) })
	var drecs []distillRecord
	for _, n := range batch {
		r := recordOfNode(n, false)
		f := r.Frame()
		provider, thread, _, _ := archive.ParseSourceID(r.SourceID)
		project, title := nodeMeta(n)
		drecs = append(drecs, distillRecord{Ref: r.SourceID, Path: "sources/" + provider + "/_v2/" + thread + ".md",
			Anchor: f.Anchor, Time: formatTime(r.Time), Label: f.Label, SpeakerID: n.SpeakerID,
			SpeakerDisplay: n.SpeakerDisplay, Role: n.Role, Thread: provider + "/" + thread, Content: n.Content,
			Owner: n.Tier == sessions.TierOwner, Group: n.Group, Project: project, Title: title})
	}
	w.ownerName(ctx, store) // read from the store already open
	// The model is asked without holding the write lock (an answer can take
	// minutes); the install then checks that nothing changed meanwhile and,
	// if something did, the batch is prepared again on the new state.
	const attempts = 3
	for attempt := 1; ; attempt++ {
		// The view pairs the revision with the files it was read at, so
		// the edits below are never built on bytes older than their base.
		v, err := w.e.View(ctx)
		if err != nil {
			return err
		}
		archives, err := w.e.ArchiveBatch(v, recs)
		if err != nil {
			return err
		}
		todo := w.unwritten(v, drecs)
		var edits []result.Edit
		if len(todo) > 0 {
			if edits, err = w.distillEdits(ctx, v, todo, "write"); err != nil {
				return err
			}
		}
		if len(edits) == 0 && len(archives) == 0 {
			break
		}
		nodes := append(append([]sessions.Node(nil), quarantine...), batch...)
		if w.e.Config().Writer.Proposes() && len(edits) > 0 {
			err = w.propose(ctx, store, nodes, v, archives, edits)
		} else {
			err = w.install(ctx, store, nodes, engine.Change{Kind: "write", Actor: trust.Owner, Base: &v.Revision,
				Edits: edits, Archives: archives})
		}
		if err == nil {
			break
		}
		if errcode.As(err).Code != errcode.Conflict || attempt == attempts {
			return err
		}
	}
	if err := store.MarkWritten(mark, w.e.WorkspaceID()); err != nil {
		return errcode.Wrap(errcode.IO, err, "%d turn(s)", len(mark))
	}
	return nil
}

// unwritten are the records of recs still to distil. A thread whose
// turns in the batch are all archived, one of them cited, was written by
// an install whose process died before it could set the markers: it is
// not distilled twice, only marked. The test is per thread, not per turn:
// most turns yield no fact and stay uncited, and distilling the rest of a
// thread alone would read answers without their questions.
func (w *writer) unwritten(v *engine.View, recs []distillRecord) []distillRecord {
	cited := w.e.SourceCited(v)
	done := map[string]bool{} // thread -> every turn archived
	anyCited := map[string]bool{}
	for _, r := range recs {
		if _, ok := done[r.Thread]; !ok {
			done[r.Thread] = true
		}
		if _, archived := v.Source(r.Ref); !archived {
			done[r.Thread] = false
		} else if cited(r.Ref) {
			anyCited[r.Thread] = true
		}
	}
	todo := recs[:0:0]
	for _, r := range recs {
		if !(done[r.Thread] && anyCited[r.Thread]) {
			todo = append(todo, r)
		}
	}
	return todo
}

// errForgottenMeanwhile is writeBatch's answer when the owner forgot a
// turn of the batch after the writer read it: the branch is read again.
var errForgottenMeanwhile = errors.New("a turn of the batch was forgotten while it was being written")

// install installs a batch's change under the write lock after checking,
// under that same lock, that no turn of the batch was forgotten since the
// writer read it from sessions.db. Forget blanks the turns under the lock,
// and a turn it found not yet archived leaves no tombstone for the archive
// append to de-duplicate against: without the check a writer that read the
// turn before the forget archived its text after it.
func (w *writer) install(ctx context.Context, store *sessions.Store, nodes []sessions.Node, ch engine.Change) error {
	return w.e.Locked(ctx, true, func(tx *engine.Tx) error {
		keys := make([]sessions.Key, len(nodes))
		for i, n := range nodes {
			keys[i] = n.Key()
		}
		// One query per session and chunk, not one per node: a batch of a
		// long chat holds thousands of nodes.
		forgotten, err := store.AnyForgotten(keys)
		if err != nil {
			return errcode.Wrap(errcode.IO, err, "sessions.db")
		}
		if forgotten {
			return errForgottenMeanwhile
		}
		_, err = tx.Install(ctx, ch)
		return err
	})
}

// modelFor returns the configured network model, or nil for offline.
func (w *writer) modelFor(override string) (model.Model, error) {
	conf := w.e.Config()
	cfg := conf.Model
	name := cfg.Name
	if conf.Memory.Writer.Model != "" {
		name = conf.Memory.Writer.Model
	}
	if override != "" {
		name = override
	}
	opts := w.e.Options()
	if opts.Model != nil {
		return opts.Model, nil
	}
	m, err := model.New(model.Config{Provider: cfg.Provider, BaseURL: cfg.BaseURL, Name: name, APIKeyEnv: cfg.APIKeyEnv},
		opts.Getenv, http.DefaultClient)
	if errors.Is(err, model.ErrOffline) {
		return nil, nil
	}
	if err != nil {
		return nil, modelError(err)
	}
	return m, nil
}

// modelError maps a provider error onto the closed set of codes.
func modelError(err error) error {
	var me *model.Error
	if errors.As(err, &me) {
		return &errcode.Error{Code: errcode.Code(me.Code), Message: me.Message, Err: err}
	}
	// Anything else (a cancelled or timed-out context, a transport error) may
	// work on the next try.
	return &errcode.Error{Code: errcode.ModelUnavailable, Message: err.Error(), Err: err}
}
