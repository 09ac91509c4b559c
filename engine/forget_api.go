package engine

import (
	"context"
	"strconv"

	"scriptorium/engine/result"
	"scriptorium/workspace"
	"scriptorium/workspace/archive"
)

// What the core keeps of forget (the service is engine/forget): the
// types the front ends share, the one sanctioned rewrite of archived
// records (ForgetArchives: v2 frames become tombstones, legacy records are
// blanked), and what the service reads of the core to preview and clean.

// ForgetCleanupCrashPoint is the test-only crash point between a forget's
// install and its clean-up outside the files (see Options.CrashAt).
const ForgetCleanupCrashPoint = "forget-installed"

// ForgetArchives is the one sanctioned rewrite of archived records: the
// new bytes of every archive of v holding a record of ids not forgotten
// yet (every copy: a legacy record shadowed by its v2 frame holds the same
// text), v2 frames replaced by tombstones and legacy records blanked, and
// what each lost. An install of kind "forget" may change archives only to
// exactly these bytes for its Sources.
func ForgetArchives(v *View, ids map[string]bool) (map[string][]byte, []result.ForgottenRecord) {
	return v.s.forgetArchives(ids)
}

func (s *snapshot) forgetArchives(ids map[string]bool) (map[string][]byte, []result.ForgottenRecord) {
	files := map[string][]byte{}
	var removed []result.ForgottenRecord
	for _, p := range s.archPaths {
		a := s.archives[p]
		refs, lines := map[string]bool{}, map[int]bool{}
		for _, src := range a.sources {
			if ids[src.ref] && !src.forgotten() {
				refs[src.ref], lines[src.view().Line] = true, true
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
			removed = append(removed, result.ForgottenRecord{SourceID: ref, Path: p, Line: r.Line, SHA256: r.SHA256})
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
func (v *View) ArchiveRecords() []result.Source {
	var out []result.Source
	for _, p := range v.s.archPaths {
		for _, src := range v.s.archives[p].sources {
			out = append(out, v.sourceOf(src))
		}
	}
	return out
}

// DerivedFiles renders every derived view of v by workspace path
// (core.md, recent_events.jsonl, relations.json, the timeline days), as
// an install leaving v would write them. Nothing is written.
func (e *Engine) DerivedFiles(v *View) map[string][]byte {
	files, _ := e.derivedFiles(v.s)
	return files
}

// VectorCachePath is the vector cache file, .scriptorium/embeddings.db.
func (e *Engine) VectorCachePath() string {
	return workspace.MetaPath(e.ws.Root(), workspace.EmbeddingsName)
}

// FS is the filesystem the workspace writes through (a fault-injecting
// one in tests).
func (e *Engine) FS() workspace.FS { return e.ws.FS() }

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
