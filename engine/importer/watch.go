package importer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"scriptorium/errcode"
	"scriptorium/transcript"
	"scriptorium/transcript/formats"
	"scriptorium/workspace"
)

// WatchStateFile is where a Watcher remembers what it imported, under the
// workspace's runtime directory: per file, the size and modification time
// it had when it was last imported (or found to be no transcript).
const WatchStateFile = "import-watch.json"

// DefaultQuiet is how long a watched file must be left alone before it is
// imported: one still being written is left for the next round.
const DefaultQuiet = 5 * time.Second

// Watcher imports the files of watched folders (config.toml's [import]
// watch, e.g. ~/.codex/sessions, ~/.gemini/tmp, a folder of chat exports)
// that are new or changed since it last imported them. The daemon runs
// Scan every minute; each changed export is its own import, so one that
// cannot be read never holds up the others, and its failure is reported
// and tried again when the file changes.
type Watcher struct {
	// StateDir is the state dir whose sessions.db the files go to.
	StateDir string
	// Paths are the watched folders or files, with ~ expanded
	// (ExpandHome).
	Paths []string
	// Senders and Location are as in Options.
	Senders  Senders
	Location *time.Location
	// Quiet is how long a file must be unchanged; zero means DefaultQuiet.
	Quiet time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	done map[string]fileSig // loaded from WatchStateFile on the first Scan
	// failed are the files of imports that failed, as they were then: a
	// file is tried again once it changes (a file still being written),
	// not every round.
	failed map[string]fileSig
}

// fileSig is what tells a changed file: size and modification time.
type fileSig struct {
	Size  int64     `json:"size"`
	MTime time.Time `json:"mtime"`
}

func (a fileSig) same(b fileSig) bool { return a.Size == b.Size && a.MTime.Equal(b.MTime) }

// WatchResult is one import a Scan ran.
type WatchResult struct {
	// Path is the file, zip or export folder imported.
	Path string
	// Result is what it stored, when Err is nil.
	Result Result
	// Err is why it could not be imported; it is tried again when it
	// changes.
	Err error
}

// ExpandHome replaces a leading ~ with the home directory.
func ExpandHome(p string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, strings.TrimPrefix(p, "~")), nil
}

// Scan imports what changed in the watched paths since the last Scan (or,
// the first time, since the last import the state file remembers) and
// left alone for Quiet. A watched path that does not exist is skipped (a
// tool not used yet). Only a failure to keep the watcher's own state is
// returned; every import's outcome is in the results.
func (w *Watcher) Scan(ctx context.Context) ([]WatchResult, error) {
	now := time.Now
	if w.Now != nil {
		now = w.Now
	}
	quiet := w.Quiet
	if quiet <= 0 {
		quiet = DefaultQuiet
	}
	if w.done == nil {
		w.done, w.failed = w.loadState(), map[string]fileSig{}
	}
	var results []WatchResult
	changed := false
	for _, root := range w.Paths {
		units, sigs := w.dirty(root, now().Add(-quiet))
		for _, u := range units {
			if ctx.Err() != nil {
				return results, nil
			}
			r := WatchResult{Path: u.path}
			r.Result, r.Err = w.importUnit(ctx, u)
			// A file that did not import is left out of the state, so
			// that its next change (the rest of it written) retries it.
			for _, f := range u.files {
				if r.Err == nil || u.unknown {
					w.done[f] = sigs[f]
					changed = true
				} else {
					w.failed[f] = sigs[f]
				}
			}
			if !u.unknown {
				results = append(results, r)
			}
		}
	}
	if changed {
		if err := w.saveState(); err != nil {
			return results, err
		}
	}
	return results, nil
}

// unit is what one import of a Scan reads: a file, a zip, or an export
// folder, and the watched files it covers.
type unit struct {
	path    string
	files   []string
	unknown bool // no format recognises it: remembered, never imported
}

// dirty lists the units of root whose files changed since they were last
// imported and were last modified before settled, and every file's
// signature.
func (w *Watcher) dirty(root string, settled time.Time) ([]unit, map[string]fileSig) {
	sigs := map[string]fileSig{}
	fi, err := os.Stat(root)
	if err != nil {
		return nil, sigs
	}
	var files []string
	if !fi.IsDir() {
		files = []string{root}
		sigs[root] = fileSig{fi.Size(), fi.ModTime().UTC()}
	} else {
		// Links are followed as an import's walk follows them: a watched
		// folder may itself be a link.
		found, _, err := walkFrom(root, true)
		if err != nil {
			return nil, sigs
		}
		for _, f := range found {
			p := filepath.Join(root, filepath.FromSlash(f.name))
			files = append(files, p)
			sigs[p] = fileSig{f.size, f.mtime.UTC()}
		}
	}
	byPath := map[string]*unit{}
	var order []string
	for _, f := range files {
		sig := sigs[f]
		if old, ok := w.done[f]; ok && old.same(sig) {
			continue
		}
		if old, ok := w.failed[f]; ok && old.same(sig) {
			continue // failed as it is: tried again when it changes
		}
		if sig.MTime.After(settled) {
			continue // still being written: the next round takes it
		}
		path, unknown := unitOf(f, root)
		u := byPath[path]
		if u == nil {
			u = &unit{path: path, unknown: unknown}
			byPath[path] = u
			order = append(order, path)
		}
		u.files = append(u.files, f)
	}
	sort.Strings(order)
	out := make([]unit, len(order))
	for i, p := range order {
		out[i] = *byPath[p]
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			// An export folder is imported whole: every file of it counts
			// as imported with it.
			out[i].files = out[i].files[:0]
			for _, f := range files {
				if strings.HasPrefix(f, p+string(filepath.Separator)) {
					out[i].files = append(out[i].files, f)
				}
			}
		}
	}
	return out, sigs
}

// unitOf is the import a changed file belongs to: the Slack export folder
// it lies in (a folder between it and root holding the export's lists),
// else the file itself; unknown when no format recognises the file.
func unitOf(file, root string) (string, bool) {
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		for name := range slackLists {
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				return dir, false
			}
		}
		if dir == root || dir == filepath.Dir(dir) || !strings.HasPrefix(dir, root) {
			break
		}
	}
	head, err := fileHead(file)
	if err != nil {
		return file, false // the import reports it
	}
	if isZip(head) {
		return file, false
	}
	return file, formats.Detect(head) == transcript.FormatUnknown
}

// importUnit imports one unit as `import PATH` would.
func (w *Watcher) importUnit(ctx context.Context, u unit) (Result, error) {
	if u.unknown {
		return Result{}, nil
	}
	in, err := List(u.path, transcript.FormatUnknown)
	if err != nil {
		return Result{}, err
	}
	return Import(ctx, w.StateDir, in, Options{Senders: w.Senders, Location: w.Location, BusyTimeout: time.Second})
}

// statePath is the watcher's state file.
func (w *Watcher) statePath() string {
	return workspace.RuntimePath(workspace.MemoryDir(w.StateDir), WatchStateFile)
}

// loadState reads what was imported; a missing or damaged file is an
// empty state (everything is imported again, which stores nothing twice).
func (w *Watcher) loadState() map[string]fileSig {
	out := map[string]fileSig{}
	data, err := os.ReadFile(w.statePath())
	if err == nil {
		_ = json.Unmarshal(data, &out)
	}
	return out
}

// saveState writes the state file. It lives in the workspace's runtime
// directory, which it never creates: without a workspace the state stays
// in memory.
func (w *Watcher) saveState() error {
	dir := filepath.Dir(w.statePath())
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	data, err := json.Marshal(w.done)
	if err != nil {
		return err
	}
	if err := workspace.WriteFileAtomic(dir, w.statePath(), data); err != nil {
		return errcode.Wrap(errcode.IO, err, "save the import watch state")
	}
	return nil
}

// Summary says in one line what a watched import did, for the daemon log.
func (r WatchResult) Summary() string {
	if r.Err != nil {
		return fmt.Sprintf("import watch: %s: %s (tried again when it changes)", r.Path, strings.Join(strings.Fields(r.Err.Error()), " "))
	}
	s := fmt.Sprintf("import watch: %s: %d new turn(s) in %d session(s)", r.Path, r.Result.Imported, r.Result.Sessions)
	if n := r.Result.Skipped[SkipChanged]; n > 0 {
		s += fmt.Sprintf(", %d changed kept as stored", n)
	}
	for _, w := range r.Result.Warnings {
		if w.Kind == WarnNoOwner || w.Kind == WarnDirectMessage {
			s += "; " + w.Message
		}
	}
	return s
}
