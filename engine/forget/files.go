package forget

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"scriptorium/engine"
	"scriptorium/workspace"
)

// The file part of a forget's clean-up beyond the install: proposals that
// hold the text are deleted, runtime status files and logs have it replaced.

// proposalsDir is where the proposals service keeps what waits for the
// owner; forget only ever deletes from it, when a proposal holds
// forgotten text (accepting it would bring the text back).
func proposalsDir(e *engine.Engine) string {
	return workspace.MetaPath(e.Root(), workspace.ProposalsName)
}

// scrubProposals lists, and with apply deletes, the proposals that hold a
// needle.
func scrubProposals(e *engine.Engine, nd needles, apply bool) ([]string, error) {
	entries, err := os.ReadDir(proposalsDir(e))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, ent := range entries {
		if !ent.Type().IsRegular() || !strings.HasSuffix(ent.Name(), ".json") {
			continue
		}
		p := filepath.Join(proposalsDir(e), ent.Name())
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if !jsonHolds(data, nd) {
			continue
		}
		out = append(out, "proposal "+strings.TrimSuffix(ent.Name(), ".json"))
		if apply {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
		}
	}
	if apply && len(out) > 0 {
		_ = workspace.SyncDir(proposalsDir(e))
	}
	return out, nil
}

// forgottenMark replaces forgotten text in runtime files and logs.
const forgottenMark = "[forgotten]"

// runtimeKept are the files under .scriptorium/ the runtime scrub never
// touches: the workspace's own bookkeeping (no text), and the stores that
// have a scrub of their own.
var runtimeKept = map[string]bool{
	workspace.IDName: true, workspace.RevisionName: true, workspace.WriteLockName: true,
	workspace.RuntimeName + "/" + workspace.LockHolderName: true, vectorFile: true,
}

// scrubRuntime lists, and with apply rewrites, the runtime status files,
// caches and logs under .scriptorium/ that hold the forgotten content.
// The text (raw or JSON-escaped) becomes [forgotten] wherever it is. A
// file that names a forgotten record by its ids is about it, and after a
// crash the text is no longer known, so: a log (*.log) loses those lines,
// any other file (a status file, a cache) is removed; each is best effort
// or rebuilt. state.db, the index, embeddings.db, proposals and install
// stages have their own treatment.
func scrubRuntime(e *engine.Engine, nd needles, apply bool) ([]string, error) {
	meta := workspace.MetaPath(e.Root())
	var forms [][]byte
	for _, t := range nd.text {
		forms = append(forms, []byte(t))
		if j, err := json.Marshal(t); err == nil {
			if esc := j[1 : len(j)-1]; !bytes.Equal(esc, []byte(t)) {
				forms = append(forms, esc)
			}
		}
	}
	ids := needles{marks: append(append([]string{}, nd.marks...), nd.ids...)}
	var out []string
	err := filepath.WalkDir(meta, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(meta, p)
		rel = filepath.ToSlash(rel)
		name := d.Name()
		switch {
		case d.IsDir() && (rel == workspace.IndexName || rel == workspace.ProposalsName || strings.HasPrefix(name, workspace.StagePrefix)):
			return filepath.SkipDir
		case d.IsDir() || !d.Type().IsRegular() || strings.HasPrefix(name, workspace.StateDBName) ||
			strings.HasPrefix(name, vectorFile) || runtimeKept[rel]:
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		changed := data
		for _, f := range forms {
			changed = bytes.ReplaceAll(changed, f, []byte(forgottenMark))
		}
		remove := false
		if ids.hitBytes(changed) {
			if strings.HasSuffix(name, ".log") {
				changed = dropLines(changed, ids)
			} else {
				remove = true
			}
		}
		if !remove && bytes.Equal(changed, data) {
			return nil
		}
		out = append(out, workspace.MetaRel(rel))
		switch {
		case !apply:
			return nil
		case remove:
			if err := e.FS().Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			return nil
		}
		return workspace.WriteFileAtomic(e.RuntimeDir(), p, changed)
	})
	return out, err
}

// dropLines returns data without the lines that hold a needle.
func dropLines(data []byte, nd needles) []byte {
	var out []byte
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if !nd.hitBytes(line) {
			out = append(out, line...)
		}
	}
	return out
}
