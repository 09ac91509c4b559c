package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"scriptorium/engine/filediff"
	"scriptorium/engine/records"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace"
	"scriptorium/workspace/topic"
)

// Change is one install: topic edits plus, for the writer, new archive
// contents, all installed atomically together.
type Change struct {
	// Kind is the history kind: write, update, sleep, promote, backfill,
	// revert, migration, and edit, delete, move (one block, by the owner).
	Kind string
	// Actor is the tier the edits are checked against (trust.CheckEdit).
	Actor trust.Tier
	// Base, when set, must be the current revision or the install is
	// refused with CONFLICT.
	Base  *int64
	Edits []result.Edit
	// Archives maps a workspace path to the complete new archive bytes.
	Archives map[string][]byte
	// Background callers give up after 1 s on a held lock.
	Background bool
	// Reverts names the revision a revert undoes (kind "revert").
	Reverts int64
	// Sources names source-ids the install is about beyond the records it
	// archives and the sources it newly cites, which the history row lists
	// on its own (a promotion of sources topics already cite, a forget).
	Sources []string

	// Finish is the post-commit step this install owes (finish.go): kind
	// "forget" (engine/forget) is the one install allowed to rewrite
	// archived bytes, to exactly ForgetArchives of its Sources, and records
	// no bytes or diffs in history. An install with a Finish is a revision
	// of its own even when it changes no file.
	Finish *Finish
}

// Update applies a transaction as the engine's caller tier (SPEC §6).
func (e *Engine) Update(ctx context.Context, tx result.Transaction) (result.UpdateResult, error) {
	if err := e.gate(trust.OpUpdate); err != nil {
		return result.UpdateResult{}, err
	}
	return e.install(ctx, Change{Kind: "update", Actor: e.opts.Tier, Base: tx.BaseRevision, Edits: tx.Edits,
		Background: !e.opts.Interactive})
}

// lock takes the write lock in the mode the change asks for.
func (e *Engine) lock(ctx context.Context, background bool) (func(), error) {
	mode := workspace.LockInteractive
	if background {
		mode = workspace.LockBackground
	}
	release, err := e.ws.Lock(ctx, mode)
	if err != nil {
		return nil, classifyLockErr(err, "take the write lock")
	}
	// An earlier install that failed past its commit point is completed
	// before anything under the lock reads the workspace (finishStages).
	if err := e.finishStages(e.ws); err != nil {
		release()
		return nil, errcode.Wrap(errcode.IO, err, "complete an earlier install")
	}
	e.locks.Add(1)
	var once sync.Once
	done := func() {
		once.Do(func() {
			e.locks.Add(-1)
			release()
		})
	}
	e.finishLocked(ctx)
	return done, nil
}

// install validates a change against the complete would-be workspace and
// installs it crash-atomically. A rejected change touches nothing.
func (e *Engine) install(ctx context.Context, ch Change) (result.UpdateResult, error) {
	release, err := e.lock(ctx, ch.Background)
	if err != nil {
		return result.UpdateResult{}, err
	}
	defer release()
	return e.installLocked(ctx, ch)
}

func (e *Engine) installLocked(ctx context.Context, ch Change) (result.UpdateResult, error) {
	rev, err := e.ws.Revision()
	if err != nil {
		return result.UpdateResult{}, errcode.Wrap(errcode.IO, err, "read revision")
	}
	if ch.Base != nil && *ch.Base != rev {
		return result.UpdateResult{}, errcode.Errorf(errcode.Conflict, "base_revision %d is not the current revision %d; read again and retry", *ch.Base, rev)
	}
	if ch.Kind == "forget" && (ch.Finish == nil || ch.Finish.Service != "forget") {
		// The clean-up is what makes a forget one: never the rewrite alone.
		return result.UpdateResult{}, errcode.Errorf(errcode.InvalidArgument, "an install of kind forget must owe the forget service's finish step")
	}
	before, err := e.snapshot(ctx)
	if err != nil {
		return result.UpdateResult{}, err
	}
	plan, err := e.planAll(before, ch)
	if err != nil {
		return result.UpdateResult{}, err
	}
	if len(plan.order) == 0 && len(plan.bad) == 0 && ch.Finish == nil {
		return result.UpdateResult{Revision: rev, Changed: []string{}}, nil
	}
	after := before.with(plan)
	// Edits refused on their own (bad path, missing file) and the damage
	// the others would do are reported together: every violation, at once.
	if bad := append(plan.bad, e.introducedBy(before, after, plan)...); len(bad) > 0 {
		return result.UpdateResult{}, &errcode.Error{Code: errcode.Rejected, Violations: bad,
			Message: fmt.Sprintf("transaction rejected: %d violation(s); nothing was changed", len(bad))}
	}
	hist := records.History{Revision: rev + 1, Time: e.opts.Now().UTC(), Actor: string(ch.Actor), Kind: ch.Kind,
		Changed: plan.order, Diffs: map[string]string{}, Files: map[string]records.FileChange{}, Reverts: ch.Reverts,
		Sources: installSources(before, after, plan, ch.Sources)}
	for _, p := range plan.order {
		hist.Diffs[p] = filediff.Unified(p, plan.old[p], plan.files[p])
		if strings.HasPrefix(p, "topics/") {
			hist.Files[p] = records.FileChange{Before: plan.old[p], After: plan.files[p]}
		}
	}
	if ch.Kind == "forget" {
		// A forget keeps no bytes or diffs: they would hold what it removes.
		hist.Diffs, hist.Files = map[string]string{}, nil
	}
	if err := e.commit(ctx, plan, hist); err != nil {
		return result.UpdateResult{}, err
	}
	e.afterInstall(ctx, before, after)
	return result.UpdateResult{Revision: rev + 1, Changed: append([]string(nil), plan.order...)}, nil
}

// txPlan is a validated set of file changes.
type txPlan struct {
	files map[string][]byte   // new content; nil = delete
	old   map[string][]byte   // previous content; nil = did not exist
	order []string            // changed paths, sorted
	bad   []errcode.Violation // edits refused on their own; the plan leaves them out
	// finish is the install's owed finish step (see Change.Finish).
	finish *Finish
}

// plan applies the edits to an in-memory copy of the topics, checks paths
// and the tier's rights, and returns only the files whose bytes change.
func (e *Engine) plan(s *snapshot, ch Change) (*txPlan, error) {
	p, err := e.planAll(s, ch)
	if err != nil {
		return nil, err
	}
	if len(p.bad) > 0 {
		return nil, &errcode.Error{Code: errcode.Rejected, Violations: p.bad,
			Message: fmt.Sprintf("transaction rejected: %d violation(s); nothing was changed", len(p.bad))}
	}
	return p, nil
}

// planAll is plan that keeps going past edits refused on their own: they
// are left out of the plan and listed in its bad field, so the caller can
// report them together with what the other edits would break.
func (e *Engine) planAll(s *snapshot, ch Change) (*txPlan, error) {
	work := map[string][]byte{}
	exists := func(p string) bool {
		if c, ok := work[p]; ok {
			return c != nil
		}
		_, ok := s.topics[p]
		return ok
	}
	content := func(p string) []byte {
		if c, ok := work[p]; ok {
			return c
		}
		if tf, ok := s.topics[p]; ok {
			return tf.data
		}
		return nil
	}
	// Where each path ends up once every move of the transaction is done.
	moves := map[string]string{}
	for _, ed := range ch.Edits {
		if ed.Op == "move" {
			moves[ed.Path] = ed.To
		}
	}
	finalPath := func(p string) string {
		for i := 0; i < len(moves); i++ { // bounded: moves may form a cycle
			next, ok := moves[p]
			if !ok {
				break
			}
			p = next
		}
		return p
	}
	var bad, forbidden []errcode.Violation
	reject := func(i int, ed result.Edit, code, msg string) {
		bad = append(bad, errcode.Violation{Code: code, Path: ed.Path, Message: fmt.Sprintf("edit %d (%s): %s", i, ed.Op, msg)})
	}
	for i, ed := range ch.Edits {
		if msg := e.checkTopicPath(ed.Path); msg != "" {
			reject(i, ed, "bad_path", msg)
			continue
		}
		var kind trust.EditKind
		var newContent []byte
		old := content(ed.Path)
		had := exists(ed.Path)
		switch ed.Op {
		case "create":
			kind = trust.EditCreate
			if had {
				reject(i, ed, "exists", "the file already exists; use replace or append")
				continue
			}
			newContent = []byte(*ed.Content)
		case "replace":
			kind = trust.EditReplace
			if !had {
				reject(i, ed, "not_found", "the file does not exist; use create")
				continue
			}
			newContent = []byte(*ed.Content)
		case "append":
			kind = trust.EditAppend
			newContent = appendContent(old, *ed.Content)
		case "delete":
			kind = trust.EditDelete
			if !had {
				reject(i, ed, "not_found", "the file does not exist")
				continue
			}
		case "move":
			kind = trust.EditMove
			if !had {
				reject(i, ed, "not_found", "the file does not exist")
				continue
			}
			if msg := e.checkTopicPath(ed.To); msg != "" {
				reject(i, ed, "bad_path", "to: "+msg)
				continue
			}
			if exists(ed.To) {
				reject(i, ed, "exists", "the destination "+ed.To+" already exists")
				continue
			}
		default:
			reject(i, ed, "unknown_op", "unknown op")
			continue
		}
		if err := trust.CheckEdit(ch.Actor, kind, ed.Path, had, old, newContent); err != nil {
			forbidden = append(forbidden, errcode.Violation{Code: "forbidden", Path: ed.Path, Message: err.Error()})
			continue
		}
		switch ed.Op {
		case "delete":
			work[ed.Path] = nil
		case "move":
			work[ed.To] = topic.Rebase(old, ed.Path, ed.To, finalPath)
			work[ed.Path] = nil
		default:
			work[ed.Path] = newContent
		}
	}
	if len(forbidden) > 0 {
		return nil, &errcode.Error{Code: errcode.Forbidden, Violations: forbidden,
			Message: fmt.Sprintf("tier %s may not make %d of these edits; nothing was changed", ch.Actor, len(forbidden))}
	}
	for p, data := range ch.Archives {
		if msg := e.checkOnDisk(p); msg != "" {
			bad = append(bad, errcode.Violation{Code: "bad_path", Path: p, Message: "archive: " + msg})
			continue
		}
		msg := archiveRewrite(s, p, data, ch.Kind == "forget")
		if msg == "" && ch.Kind == "forget" {
			msg = forgetRewrite(s, ch, p, data)
		}
		if msg != "" {
			bad = append(bad, errcode.Violation{Code: "archive_rewrite", Path: p, Message: msg})
			continue
		}
		work[p] = data
	}
	plan := &txPlan{files: map[string][]byte{}, old: map[string][]byte{}, bad: bad, finish: ch.Finish}
	for p, c := range work {
		var prev []byte
		if tf, ok := s.topics[p]; ok {
			prev = tf.data
		} else if a, ok := s.archives[p]; ok {
			prev = a.data
		}
		if c == nil && prev == nil {
			continue
		}
		if c != nil && prev != nil && bytes.Equal(c, prev) {
			continue
		}
		plan.files[p], plan.old[p] = c, prev
		plan.order = append(plan.order, p)
	}
	sort.Strings(plan.order)
	return plan, nil
}

// archiveRewrite returns why new bytes for archive p break the append-only
// rule, or "": a v2 archive may only grow (its old bytes stay a prefix) and a
// legacy archive is frozen. Only a forget may rewrite archived records.
func archiveRewrite(s *snapshot, p string, data []byte, forget bool) string {
	old, ok := s.archives[p]
	switch {
	case !ok || forget:
		return ""
	case old.legacy:
		return "legacy archives are frozen: only forget may change archived records"
	case !bytes.HasPrefix(data, old.data):
		return "archives are append-only: the new bytes must start with every old byte (only forget may change archived records)"
	}
	return ""
}

// appendContent is the append op: the new text follows the old, with a
// blank line between them when the old text does not already end with one,
// so an appended block never glues onto the last paragraph.
func appendContent(old []byte, add string) []byte {
	out := append([]byte(nil), old...)
	switch {
	case len(old) == 0:
	case bytes.HasSuffix(old, []byte("\n\n")):
	case bytes.HasSuffix(old, []byte("\n")):
		out = append(out, '\n')
	default:
		out = append(out, '\n', '\n')
	}
	return append(out, add...)
}

// checkTopicPath returns why p is not an acceptable topic path, or "":
// its name (workspace.CheckTopicPath), then the disk.
func (e *Engine) checkTopicPath(p string) string {
	if msg := workspace.CheckTopicPath(p); msg != "" {
		return msg
	}
	return e.checkOnDisk(p)
}

// checkOnDisk returns why the file at workspace path p cannot be written
// by renaming new bytes over it, or "". No component of the path may be a
// symlink (writing through one could land outside the workspace), a
// parent must be a directory and the path itself must not be one: the
// rename happens past the commit point, where a failure would leave a
// journal that no open can roll forward.
func (e *Engine) checkOnDisk(p string) string {
	cur := e.ws.Root()
	for _, seg := range strings.Split(p, "/") {
		cur = filepath.Join(cur, seg)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "path goes through a symbolic link"
		}
		if err == nil && cur != filepath.Join(e.ws.Root(), filepath.FromSlash(p)) && !fi.IsDir() {
			return "a parent of the path is a file"
		}
		if err == nil && cur == filepath.Join(e.ws.Root(), filepath.FromSlash(p)) && fi.IsDir() {
			return "the path is a directory"
		}
	}
	return ""
}

// lineRef matches the line numbers messages carry (":12", "line 12",
// "lines 3"), which an edit may shift without changing the problem.
var lineRef = regexp.MustCompile(`:\d+\b|\blines? \d+\b`)

// introduced returns the violations of after that before did not have, so
// a transaction is judged on what it breaks, not on damage it found.
// Line numbers are ignored in the comparison because edits move lines.
func introduced(before, after []errcode.Violation) []errcode.Violation {
	key := func(v errcode.Violation) string {
		return v.Code + "\x00" + v.Path + "\x00" + lineRef.ReplaceAllString(v.Message, "")
	}
	count := map[string]int{}
	for _, v := range before {
		count[key(v)]++
	}
	var out []errcode.Violation
	for _, v := range after {
		k := key(v)
		if count[k] > 0 {
			count[k]--
			continue
		}
		out = append(out, v)
	}
	return out
}
