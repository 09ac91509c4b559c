package engine

import (
	"context"

	"scriptorium/engine/records"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// View is a consistent read of the workspace: every topic and archive
// parsed with trust resolved, and the revision those bytes belong to. The
// pair is what services build edits on; an install against Revision fails
// with CONFLICT if anything changed since, so an edit is never built on a
// snapshot older than its base revision.
type View struct {
	// Revision is the workspace revision the files were read at.
	Revision int64
	s        *snapshot
}

// maxViewReads bounds the re-reads of View while installs keep landing.
const maxViewReads = 5

// View reads the workspace without the write lock. It reads the revision
// before and after the files and retries until both agree, so the files
// can only be newer than Revision (a racing install then shows as a
// CONFLICT at install time), never older.
func (e *Engine) View(ctx context.Context) (*View, error) {
	var last *View
	for i := 0; i < maxViewReads; i++ {
		before, err := e.revision()
		if err != nil {
			return nil, err
		}
		s, err := e.snapshot(ctx)
		if err != nil {
			return nil, err
		}
		after, err := e.revision()
		if err != nil {
			return nil, err
		}
		last = &View{Revision: before, s: s}
		if before == after {
			return last, nil
		}
	}
	// Still racing: keep the older revision, so an install built on this
	// view is refused with CONFLICT rather than applied to other bytes.
	return last, nil
}

func (e *Engine) revision() (int64, error) {
	rev, err := e.ws.Revision()
	if err != nil {
		return 0, errcode.Wrap(errcode.IO, err, "read revision")
	}
	return rev, nil
}

// TopicPaths lists the topic files, sorted.
func (v *View) TopicPaths() []string { return v.s.topicPaths }

// Topic returns a topic file's bytes and its parse; ok is false when the
// file does not exist.
func (v *View) Topic(p string) (data []byte, f *topic.File, ok bool) {
	tf, ok := v.s.topics[p]
	if !ok {
		return nil, nil, false
	}
	return tf.data, tf.file, true
}

// TopicProblems lists the format problems found parsing topic file p.
func (v *View) TopicProblems(p string) []topic.Problem {
	if tf, ok := v.s.topics[p]; ok {
		return tf.problems
	}
	return nil
}

// BlockTrusted reports whether block b of topic file p is trusted.
func (v *View) BlockTrusted(p string, b topic.Element) bool {
	tf, ok := v.s.topics[p]
	if !ok {
		return false
	}
	return v.s.blockTrusted(tf, b)
}

// BlockView is block b of topic file p as get shows it: trust resolved,
// footnotes with their citations.
func (v *View) BlockView(p string, b topic.Element) result.BlockView {
	tf, ok := v.s.topics[p]
	if !ok {
		return result.BlockView{}
	}
	return v.s.blockView(tf, b)
}

// BlockIDs is the set of every block id in the workspace.
func (v *View) BlockIDs() map[string]bool {
	used := map[string]bool{}
	for _, p := range v.s.topicPaths {
		for _, b := range v.s.topics[p].file.Blocks() {
			used[b.BlockID] = true
		}
	}
	return used
}

// CitedSources is the set of source-ids some topic footnote cites.
func (v *View) CitedSources() map[string]bool { return v.s.citedSources() }

// Source returns the record a source-id resolves to (a v2 frame wins
// over a legacy record).
func (v *View) Source(ref string) (result.Source, bool) {
	src, ok := v.s.sources.Get(ref)
	if !ok {
		return result.Source{}, false
	}
	return v.sourceOf(src), true
}

// Sources lists every resolved source record, archive by archive in path
// order and in file order within an archive; a source-id appears once.
func (v *View) Sources() []result.Source {
	var out []result.Source
	for _, p := range v.s.archPaths {
		for _, src := range v.s.archives[p].sources {
			if v.s.sources.Lookup(src.ref) != src {
				continue // shadowed by the record that wins its source-id
			}
			out = append(out, v.sourceOf(src))
		}
	}
	return out
}

func (v *View) sourceOf(src *sourceEntry) result.Source {
	return result.Source{SourceView: src.view(), Thread: src.file.provider + "/" + src.file.thread, Pending: src.pending(),
		ArrivedPending: src.framePending, Promoted: v.s.promoted[src.ref]}
}

// WithheldText returns topic file p as a model may see it: pending blocks
// replaced by a placeholder. withheld reports whether any was replaced.
func (v *View) WithheldText(p string) (text string, withheld bool) {
	tf, ok := v.s.topics[p]
	if !ok {
		return "", false
	}
	return v.s.withheldText(tf)
}

// CheckWithheld rejects model edits that would rewrite, delete or move a
// file holding pending blocks (whose text the model was not shown).
func (v *View) CheckWithheld(edits []result.Edit) error { return v.s.checkWithheld(edits) }

// Violations validates the view (SPEC §3–§4).
func (v *View) Violations() []errcode.Violation { return v.s.violations() }

// NewViolations lists the violations after has that before does not: what
// a change would break (the rule every install is judged by).
func NewViolations(before, after *View) []errcode.Violation {
	return introduced(before.s.violations(), after.s.violations())
}

// ArchiveBatch computes the new bytes of every v2 archive a batch of
// records lands in (records already archived are skipped). The batch is
// refused whole on an unsafe or colliding provider or thread name.
func (e *Engine) ArchiveBatch(v *View, recs []archive.Record) (map[string][]byte, error) {
	files, _, err := e.archiveBatch(v.s, recs)
	return files, err
}

// CheckTopicPath returns why p is not an acceptable topic path, or "".
func (e *Engine) CheckTopicPath(p string) string { return e.checkTopicPath(p) }

// CoreRender renders core.md from a view under the configured budget,
// without writing anything.
func (e *Engine) CoreRender(v *View) ([]byte, result.CoreReport) { return e.coreRender(v.s) }

// CoreExcluded lists the core blocks the budget leaves out of core.md in
// a view: the gap a sleep pass reports.
func (e *Engine) CoreExcluded(v *View) []string {
	_, rep := e.coreRender(v.s)
	return records.NonNil(rep.Excluded)
}

// Archive is source archive p as the drill-down shows it: every record in
// file order (one a later record shadows too), whether it is a legacy
// archive, and why reading it stopped early; ok is false when there is no
// archive p.
func (v *View) Archive(p string) (a result.ArchiveView, ok bool) {
	arch, ok := v.s.archives[p]
	if !ok {
		return result.ArchiveView{}, false
	}
	a = result.ArchiveView{Path: p, Legacy: arch.legacy, Sources: []result.SourceView{}}
	for _, src := range arch.sources {
		a.Sources = append(a.Sources, src.view())
	}
	if arch.stopErr != nil {
		a.Problem = arch.stopErr.Error()
	}
	return a, true
}
