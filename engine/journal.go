package engine

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"scriptorium/engine/records"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

// The install protocol (SPEC §6): stage every new file in
// .scriptorium/runtime/tx-<id>/, fsync, write and fsync journal.json (the
// commit point), rename the staged files into place, fsync directories,
// bump the revision, record history, remove the stage. Recovery under the
// lock rolls a complete journal forward and discards anything else, so a
// crash at any point leaves exactly the old or exactly the new workspace.

const journalName = "journal.json"

type journalOp struct {
	Target string `json:"target"`           // workspace-relative path
	Staged string `json:"staged,omitempty"` // file name inside the stage dir; "" = delete
}

type journal struct {
	Version  int             `json:"version"`
	Revision int64           `json:"revision"`
	Ops      []journalOp     `json:"ops"`
	History  records.History `json:"history"`
	// Finish is the install's owed finish step (finish.go), recorded with
	// the history row so that recovery runs it as it finishes the install
	// (ids and hashes, never the forgotten text).
	Finish *Finish `json:"finish,omitempty"`
	// Forget is how a journal of an earlier version carried a forget's
	// ledger record: replayed as the forget service's finish step.
	Forget json.RawMessage `json:"forget,omitempty"`
	Sum    string          `json:"sum"` // sha256 of the fields above, so a torn journal is never trusted
}

// finish is the journal's finish step, from either field.
func (j journal) finish() *Finish {
	if j.Finish == nil && len(j.Forget) > 0 && string(j.Forget) != "null" {
		return &Finish{Service: "forget", Payload: j.Forget}
	}
	return j.Finish
}

func (j journal) checksum() string {
	c := j
	c.Sum = ""
	data, _ := json.Marshal(c)
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// crashPoint ends the process abruptly at a named step when a test asks
// for it, to prove recovery from a crash at that exact step.
func (e *Engine) crashPoint(step string) {
	if e.opts.CrashAt != "" && e.opts.CrashAt == step {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // SIGKILL cannot be caught; wait for it to land
	}
}

// CrashPoints lists the steps of an install a test can crash at, in order.
var CrashPoints = []string{"staged", "journal-written", "renamed-first", "renamed-all", "revision-bumped", "history-recorded"}

func (e *Engine) commit(ctx context.Context, plan *txPlan, hist records.History) error {
	idb := make([]byte, 8)
	if _, err := rand.Read(idb); err != nil {
		return errcode.Wrap(errcode.IO, err, "stage transaction")
	}
	fsys := e.ws.FS()
	stage := filepath.Join(e.ws.StageDir(), workspace.StagePrefix+hex.EncodeToString(idb))
	if err := fsys.Mkdir(stage, workspace.PrivateDir); err != nil {
		return errcode.Wrap(errcode.IO, err, "stage transaction")
	}
	journalPath := filepath.Join(stage, journalName)
	placed := false // journal.json may exist: the stage may be committed
	sum := ""       // the journal's checksum once written
	fail := func(err error, what string) error {
		// A stage whose journal is in place is undone by removing the
		// journal first, on its own: removing the whole stage at once could
		// take staged files and leave the journal, which the next open would
		// then roll forward without them. If the journal cannot be removed,
		// the next open completes the install, and the error says so.
		if placed {
			if rerr := fsys.Remove(journalPath); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				e.doubted.add(sum)
				return errcode.Wrap(errcode.IO, err, "%s; the staged install could not be withdrawn (%v) and will be completed when the workspace is next opened", what, rerr)
			}
		}
		_ = fsys.RemoveAll(stage)
		return errcode.Wrap(errcode.IO, err, "%s; nothing was changed", what)
	}
	j := journal{Version: 1, Revision: hist.Revision, History: hist, Finish: plan.finish}
	for i, p := range plan.order {
		op := journalOp{Target: p}
		if data := plan.files[p]; data != nil {
			op.Staged = fmt.Sprintf("f%d", i)
			if err := workspace.WriteSynced(fsys, filepath.Join(stage, op.Staged), data); err != nil {
				return fail(err, "stage "+p)
			}
		}
		j.Ops = append(j.Ops, op)
	}
	e.crashPoint("staged")
	j.Sum = j.checksum()
	sum = j.Sum
	data, _ := json.Marshal(j)
	tmp := filepath.Join(stage, journalName+".part")
	if err := workspace.WriteSynced(fsys, tmp, data); err != nil {
		return fail(err, "write journal")
	}
	placed = true // a failed rename may still have happened
	if err := fsys.Rename(tmp, journalPath); err != nil {
		return fail(err, "write journal")
	}
	if err := fsys.SyncDir(stage); err != nil {
		return fail(err, "write journal")
	}
	// The stage's own entry in its parent must be durable before anything
	// is renamed out of it: otherwise a power loss could keep renamed files
	// and lose the journal that completes them.
	if err := fsys.SyncDir(e.ws.StageDir()); err != nil {
		return fail(err, "write journal")
	}
	e.crashPoint("journal-written")
	// Past the commit point: the install must complete. An error now is an
	// IO failure that recovery finishes on the next open.
	if err := e.rollForward(ctx, stage, j); err != nil {
		return errcode.Wrap(errcode.IO, err, "install revision %d (it will be completed when the workspace is next opened)", j.Revision)
	}
	return nil
}

// rollForward applies a committed journal. It is idempotent: a staged file
// that is gone was already renamed, a deleted target that is gone was
// already deleted.
func (e *Engine) rollForward(ctx context.Context, stage string, j journal) error {
	root, fsys := e.ws.Root(), e.ws.FS()
	dirs := map[string]bool{}
	for i, op := range j.Ops {
		target := filepath.Join(root, filepath.FromSlash(op.Target))
		if op.Staged == "" {
			if err := fsys.Remove(target); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		} else {
			src := filepath.Join(stage, op.Staged)
			if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err := workspace.MkdirAllSynced(fsys, root, filepath.Dir(target)); err != nil {
				return err
			}
			if err := fsys.Rename(src, target); errors.Is(err, syscall.EXDEV) {
				// A stage on another filesystem (left by an older version
				// under a runtime dir moved elsewhere) is copied instead:
				// recovery must never leave the workspace unopenable.
				err = workspace.CopyInto(fsys, src, target)
				if err != nil {
					return err
				}
			} else if err != nil {
				return err
			}
		}
		dirs[filepath.Dir(target)] = true
		if i == 0 {
			e.crashPoint("renamed-first")
		}
	}
	for d := range dirs {
		if err := fsys.SyncDir(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	e.crashPoint("renamed-all")
	if err := e.ws.SetRevision(j.Revision); err != nil {
		return err
	}
	e.crashPoint("revision-bumped")
	if err := e.recordHistory(ctx, j.History, j.finish()); err != nil {
		return err
	}
	e.crashPoint("history-recorded")
	if err := fsys.RemoveAll(stage); err != nil {
		return err
	}
	return fsys.SyncDir(filepath.Dir(stage))
}

// needsRecovery tells the workspace, before it takes the lock, whether
// recover has anything to do: a stage left by an install, or derived views
// rendered for an older revision.
func (e *Engine) needsRecovery(w *workspace.Workspace) bool {
	e.ws = w
	for _, dir := range w.StageDirs() {
		entries, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return true
		}
		for _, ent := range entries {
			if strings.HasPrefix(ent.Name(), workspace.StagePrefix) {
				return true
			}
		}
	}
	return e.derivedStale() || e.finishesOwed()
}

// recover runs under the write lock when the workspace opens: every stage
// with a complete journal is rolled forward, every other stage discarded.
func (e *Engine) recover(w *workspace.Workspace) error {
	e.ws = w
	if err := e.finishStages(w); err != nil {
		return err
	}
	if e.derivedStale() {
		// An install finished (here or before a crash) without its render:
		// render now. Best effort, as after any install.
		if s, err := e.snapshot(context.Background()); err == nil {
			_, _ = e.writeDerived(s)
		}
	}
	// A finish step a crash left owed (a forget's clean-up) runs now,
	// before anyone reads what it has not scrubbed yet. A failure
	// (sessions.db or the index busy) is retried on the next open rather
	// than keeping the workspace closed.
	_ = (&Tx{e: e}).RunFinishes(context.Background())
	return w.FS().SyncDir(w.StageDir())
}

// finishStages rolls every stage with a complete journal forward and
// discards every other. Open runs it through recover, and every taking of
// the write lock runs it first too (Engine.lock), because an install that failed past its commit point
// (a full disk, EIO) leaves its stage for whoever takes the lock next, and
// a long-lived engine (TUI, MCP server) must not build on a half-renamed
// tree whose journal would later be replayed over its own install. The
// caller holds the write lock.
func (e *Engine) finishStages(w *workspace.Workspace) error {
	for _, dir := range w.StageDirs() {
		if err := e.finishStagesIn(w, dir); err != nil {
			return err
		}
	}
	return nil
}

func (e *Engine) finishStagesIn(w *workspace.Workspace, dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, ent := range entries {
		if !ent.IsDir() || !strings.HasPrefix(ent.Name(), workspace.StagePrefix) {
			continue
		}
		stage := filepath.Join(dir, ent.Name())
		data, err := os.ReadFile(filepath.Join(stage, journalName))
		var j journal
		if err == nil && json.Unmarshal(data, &j) == nil && j.Sum != "" && j.Sum == j.checksum() {
			if err := e.rollForward(context.Background(), stage, j); err != nil {
				return fmt.Errorf("roll forward revision %d: %w", j.Revision, err)
			}
			continue
		}
		if err := w.FS().RemoveAll(stage); err != nil {
			return fmt.Errorf("discard incomplete stage %s: %w", ent.Name(), err)
		}
	}
	return nil
}

// doubtedJournals are the journals (by checksum) of installs this process
// reported failed after placing their journal, which it could then
// neither make durable nor remove. Its own reads skip them: see
// readStageOverlay.
type doubtedJournals struct {
	mu   sync.Mutex
	sums map[string]bool
}

func (d *doubtedJournals) add(sum string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.sums == nil {
		d.sums = map[string]bool{}
	}
	d.sums[sum] = true
}

func (d *doubtedJournals) has(sum string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.sums[sum]
}
