package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"scriptorium/engine/index"
	"scriptorium/engine/vectors"
	"scriptorium/workspace"
	"scriptorium/workspace/archive"
)

// What the core keeps of forget (the service is engine/forget): the
// types the front ends share, the one sanctioned rewrite of archived
// records (ForgetArchives: v2 frames become tombstones, legacy records are
// blanked), and what the service reads of the core to preview and clean.

// ForgetSelector chooses what a forget removes. Exactly one field is set.
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

// ForgetResult is what a forget removed, or would remove on a dry run.
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

// ForgottenRecord is one archived record ForgetArchives removes: where it
// was and the SHA-256 of its bytes.
type ForgottenRecord struct {
	SourceID string `json:"source_id"`
	Path     string `json:"path"`
	Line     int    `json:"line"`
	SHA256   string `json:"sha256"`
}

// ForgetCleanupCrashPoint is the test-only crash point between a forget's
// install and its clean-up outside the files (see Options.CrashAt).
const ForgetCleanupCrashPoint = "forget-installed"

// ForgetArchives is the one sanctioned rewrite of archived records: the
// new bytes of every archive of v holding a record of ids not forgotten
// yet (every copy: a legacy record shadowed by its v2 frame holds the same
// text), v2 frames replaced by tombstones and legacy records blanked, and
// what each lost. An install of kind "forget" may change archives only to
// exactly these bytes for its Sources.
func ForgetArchives(v *View, ids map[string]bool) (map[string][]byte, []ForgottenRecord) {
	return v.s.forgetArchives(ids)
}

func (s *snapshot) forgetArchives(ids map[string]bool) (map[string][]byte, []ForgottenRecord) {
	files := map[string][]byte{}
	var removed []ForgottenRecord
	for _, p := range s.archPaths {
		a := s.archives[p]
		refs, lines := map[string]bool{}, map[int]bool{}
		for _, src := range a.sources {
			if ids[src.view.Ref] && !src.view.Forgotten {
				refs[src.view.Ref], lines[src.view.Line] = true, true
			}
		}
		if len(refs) == 0 {
			continue
		}
		var out []byte
		var gone []archive.Removed
		if a.legacy {
			out, gone = archive.ForgetLegacy(a.data, lines)
		} else {
			out, gone = archive.Forget(a.data, refs)
		}
		for _, r := range gone {
			ref := r.SourceID
			if ref == "" {
				ref = a.provider + "/" + a.thread + "/legacy-L" + strconv.Itoa(r.Line)
			}
			removed = append(removed, ForgottenRecord{SourceID: ref, Path: p, Line: r.Line, SHA256: r.SHA256})
		}
		if len(gone) > 0 {
			files[p] = out
		}
	}
	return files, removed
}

// forgetRewrite returns why a forget's archive bytes for p are not the
// sanctioned rewrite of its sources, or "".
func forgetRewrite(s *snapshot, ch Change, p string, data []byte) string {
	ids := map[string]bool{}
	for _, id := range ch.Sources {
		ids[id] = true
	}
	want, _ := s.forgetArchives(ids)
	if w, ok := want[p]; !ok || string(w) != string(data) {
		return "a forget may change an archive only by tombstoning the records of its sources"
	}
	return ""
}

// ArchiveRecords lists every record of every archive of v in path and
// file order, shadowed and forgotten ones included: what a forget selects
// from.
func (v *View) ArchiveRecords() []Source {
	var out []Source
	for _, p := range v.s.archPaths {
		for _, src := range v.s.archives[p].sources {
			out = append(out, v.sourceOf(src))
		}
	}
	return out
}

// DerivedDiffs diffs the derived views as they are on disk against their
// render from after; timeline days no trusted block mentions any more are
// deletions. Nothing is written.
func (e *Engine) DerivedDiffs(after *View) []FileDiff { return e.derivedDiffs(after.s) }

// IndexChanges returns the search documents of the files that differ
// between two views, as each holds them.
func IndexChanges(before, after *View) (old, cur map[string]index.Doc) {
	return touchedDocs(before.s, after.s)
}

// VectorKeys is the set of vector cache keys (the SHA-256 of each text
// embedded) of every document v embeds.
func VectorKeys(v *View) map[string]bool {
	out := map[string]bool{}
	for _, d := range vectors.Docs(v.s.docsOf()) {
		sum := sha256.Sum256([]byte(d.Text))
		out[string(sum[:])] = true
	}
	return out
}

// VectorCachePath is the vector cache file, .scriptorium/embeddings.db.
func (e *Engine) VectorCachePath() string {
	return workspace.MetaPath(e.ws.Root(), workspace.EmbeddingsName)
}

// StateDB is the workspace's state.db, for the services that keep or
// scrub rows of it (forget's ledger and clean-up).
func (e *Engine) StateDB() *sql.DB { return e.db }

// FS is the filesystem the workspace writes through (a fault-injecting
// one in tests).
func (e *Engine) FS() workspace.FS { return e.ws.FS() }

// MetaDir is the workspace's .scriptorium directory.
func (e *Engine) MetaDir() string { return filepath.Join(e.ws.Root(), workspace.MetaDir) }

// CrashPoint ends the process at a named step when Options.CrashAt names
// it: the test seam of a service's steps.
func (e *Engine) CrashPoint(step string) { e.crashPoint(step) }

// RebuildAll re-renders the derived views and replaces the whole search
// index with a fresh build: a deleted document's terms would otherwise
// stay in its old segments.
func (tx *Tx) RebuildAll(ctx context.Context) error {
	e := tx.e
	s, err := e.snapshot(ctx)
	if err != nil {
		return err
	}
	if _, err := e.writeDerived(s); err != nil {
		return err
	}
	if sv := searcher(); sv != nil {
		return sv.Rebuild(ctx, e, Corpus{s: s, root: e.ws.Root()})
	}
	return nil
}

// derivedDiffs diffs the derived views on disk against their render from
// after.
func (e *Engine) derivedDiffs(after *snapshot) []FileDiff {
	files, _ := e.derivedFiles(after)
	root := e.ws.Root()
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	_ = filepath.WalkDir(filepath.Join(root, "timeline"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if rel = filepath.ToSlash(rel); files[rel] == nil {
			paths = append(paths, rel)
		}
		return nil
	})
	sort.Strings(paths)
	var out []FileDiff
	for _, p := range paths {
		old, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			old = nil
		}
		if bytes.Equal(old, files[p]) {
			continue
		}
		out = append(out, FileDiff{Path: p, Diff: unifiedDiff(p, old, files[p])})
	}
	return out
}
