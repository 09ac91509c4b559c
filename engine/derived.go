package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"scriptorium/engine/records"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/render"
	"scriptorium/workspace"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

const coreTopicPath = render.CoreTopicPath

// renderTopic converts a parsed topic file into the renderer's input, with
// block trust resolved against the whole snapshot.
func (s *snapshot) renderTopic(tf *topicFile) render.Topic {
	t := render.Topic{Path: tf.path}
	blocks := tf.renderBlocks()
	if len(blocks) > 0 {
		t.Blocks = make([]render.Block, len(blocks))
	}
	for i, b := range tf.file.Blocks() {
		t.Blocks[i] = blocks[i]
		t.Blocks[i].Trusted = s.blockTrusted(tf, b)
	}
	return t
}

// renderBlocks returns the file's blocks in the renderer's form with
// Trusted unset, built on first use and shared: callers copy the
// elements before setting Trusted and never modify the slices inside.
func (tf *topicFile) renderBlocks() []render.Block {
	tf.blocksOnce.Do(func() {
		defs := tf.definitions()
		for _, b := range tf.file.Blocks() {
			rb := render.Block{ID: b.BlockID, Path: tf.path, Raw: b.Raw, Text: topic.BlockText(b)}
			for i, r := range b.Refs { // a block has a few references: no map per block
				d, ok := defs[r.Label]
				if !ok || slices.ContainsFunc(b.Refs[:i], func(o topic.Ref) bool { return o.Label == r.Label }) {
					continue
				}
				fn := render.Footnote{Label: d.Label, Date: d.Date, Raw: topic.FormatDefinition(*d)}
				for _, c := range d.Sources {
					fn.Sources = append(fn.Sources, render.Citation{SourceID: c.SourceID, Path: c.Path, Anchor: c.Anchor})
				}
				rb.Footnotes = append(rb.Footnotes, fn)
			}
			for _, l := range b.Links {
				if l.BlockID != "" {
					rb.Links = append(rb.Links, l.BlockID)
				}
			}
			tf.blocks = append(tf.blocks, rb)
		}
	})
	return tf.blocks
}

func (s *snapshot) renderTopics() []render.Topic {
	out := make([]render.Topic, 0, len(s.topicPaths))
	for _, p := range s.topicPaths {
		out = append(out, s.renderTopic(s.topics[p]))
	}
	return out
}

// coreRender renders core.md from the snapshot without writing it.
func (e *Engine) coreRender(s *snapshot) ([]byte, result.CoreReport) {
	var t render.Topic
	if tf, ok := s.topics[coreTopicPath]; ok {
		t = s.renderTopic(tf)
	} else {
		t.Path = coreTopicPath
	}
	out, rep := render.Core(t, e.Config().Memory.Core.Budget)
	rep.Included, rep.Excluded, rep.Pending = records.NonNil(rep.Included), records.NonNil(rep.Excluded), records.NonNil(rep.Pending)
	return out, rep
}

// writeDerived renders every derived view of s (core.md, timeline/,
// recent_events.jsonl, relations.json) and makes the files on disk match.
// The views are kept as per-file fragments between calls
// (derived_cache.go): a render resolves and re-renders only the topic
// files that changed or cite what changed, and writes only the files
// whose bytes changed; timeline days that no longer exist are removed.
// The caller holds the write lock.
func (e *Engine) writeDerived(s *snapshot) (result.CoreReport, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	files, rep := e.derivedFilesCached(s)
	// Only the derived files: every .md under timeline/ is a derived day.
	if err := e.inc.disk.Sync(e.ws.Root(), e.ws.RuntimeDir(), []string{"core.md", "recent_events.jsonl", "relations.json"},
		"timeline", files); err != nil {
		return rep, err
	}
	// Remember what core.md was rendered as, so migrateCore never mistakes
	// our own render for a hand-written file (after topics/core.md is
	// deleted, the last render is still on disk until the next one).
	if err := e.markCoreRendered(files["core.md"]); err != nil {
		return rep, err
	}
	return rep, e.markDerivedRevision()
}

// derivedFiles renders every derived view of s from scratch, by workspace
// path: core.md, recent_events.jsonl, relations.json and the timeline
// days. writeDerived renders the same bytes incrementally.
func (e *Engine) derivedFiles(s *snapshot) (map[string][]byte, result.CoreReport) {
	core, rep := e.coreRender(s)
	topics := s.renderTopics()
	files := map[string][]byte{
		"core.md":             core,
		"recent_events.jsonl": render.RecentEvents(topics),
		"relations.json":      render.Relations(topics),
	}
	for p, data := range render.Timeline(topics) {
		files[p] = data
	}
	return files, rep
}

// derivedRevisionFile records, in the runtime directory, the revision the
// derived views were last rendered for. A process killed between an
// install and its render leaves it behind the revision, and the next open
// renders again (see recover).
const derivedRevisionFile = "derived-revision"

func (e *Engine) markDerivedRevision() error {
	rev, err := e.ws.Revision()
	if err != nil {
		return errcode.Wrap(errcode.IO, err, "read revision")
	}
	return e.writeRuntime(derivedRevisionFile, []byte(strconv.FormatInt(rev, 10)+"\n"), "the derived views' revision")
}

// writeRuntime writes want to the runtime file name unless it holds it.
func (e *Engine) writeRuntime(name string, want []byte, what string) error {
	p := filepath.Join(e.ws.RuntimeDir(), name)
	if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, want) {
		return nil
	}
	if err := workspace.WriteFileAtomic(e.ws.RuntimeDir(), p, want); err != nil {
		return errcode.Wrap(errcode.IO, err, "record %s", what)
	}
	return nil
}

// derivedStale reports whether the derived views were rendered for an
// older revision. A workspace never rendered is not stale: read-only verbs
// must not create derived views on their own account.
func (e *Engine) derivedStale() bool {
	data, err := os.ReadFile(filepath.Join(e.ws.RuntimeDir(), derivedRevisionFile))
	if err != nil {
		return false
	}
	rev, err := e.ws.Revision()
	return err == nil && strings.TrimSpace(string(data)) != strconv.FormatInt(rev, 10)
}

// afterInstall rebuilds what derives from topics after a successful
// install. The install already stands; a failure here is repaired by the
// next render, so it is not reported as the install's failure.
func (e *Engine) afterInstall(ctx context.Context, before, s *snapshot) {
	if moved, err := e.migrateCore(ctx); err == nil && moved {
		if fresh, err := e.snapshot(ctx); err == nil {
			before, s = nil, fresh // the migration's own install updated the index from s
		}
	}
	_, _ = e.writeDerived(s)
	e.updateIndex(ctx, before, s)
}

// Core renders core.md now (and every other derived view) and reports the
// budget outcome. A hand-written core.md with no topics/core.md is first
// moved into topics/core.md through a normal transaction.
func (e *Engine) Core(ctx context.Context) (result.CoreReport, error) {
	if err := e.gate("core"); err != nil {
		return result.CoreReport{}, err
	}
	release, err := e.lock(ctx, !e.opts.Interactive)
	if err != nil {
		return result.CoreReport{}, err
	}
	defer release()
	if _, err := e.migrateCore(ctx); err != nil {
		return result.CoreReport{}, err
	}
	s, err := e.read(ctx, true) // trust-only when cold: see loadFiles
	if err != nil {
		return result.CoreReport{}, err
	}
	return e.writeDerived(s)
}

// migrateCore moves a hand-written core.md into topics/core.md when the
// latter does not exist (SPEC §8). With both, topics/core.md wins and the
// stray is simply overwritten by the render.
func (e *Engine) migrateCore(ctx context.Context) (bool, error) {
	root := e.ws.Root()
	if _, err := os.Stat(filepath.Join(root, "topics", "core.md")); err == nil {
		return false, nil
	}
	data, err := os.ReadFile(filepath.Join(root, "core.md"))
	if err != nil || len(bytes.TrimSpace(data)) == 0 || e.renderedCore(data) {
		return false, nil
	}
	content := string(data)
	_, err = e.installLocked(ctx, Change{Kind: "migration", Actor: "owner",
		Edits: []result.Edit{{Op: "create", Path: coreTopicPath, Content: &content}}})
	if err == nil {
		return true, nil
	}
	// Not a valid topic file as it is: keep every byte as trusted migration
	// evidence and distil it into a valid topics/core.md citing that
	// evidence, so rendering can never destroy the only copy of these facts.
	if _, err2 := e.migrateInvalidCore(ctx, data); err2 != nil {
		ee := errcode.As(err)
		return false, &errcode.Error{Code: ee.Code, Violations: ee.Violations, Err: err,
			Message: "core.md is hand-written, is not a valid topic file, and could not be archived as evidence (" +
				errcode.As(err2).Message + "); fix it first: " + ee.Message}
	}
	return true, nil
}

// migrateInvalidCore archives a hand-written core.md that is not a valid
// topic as one source record under sources/migration/_v2/core.md (its
// bytes kept exactly) and creates topics/core.md with one cited block per
// paragraph and its headings, in one install.
func (e *Engine) migrateInvalidCore(ctx context.Context, data []byte) (result.UpdateResult, error) {
	s, err := e.snapshot(ctx)
	if err != nil {
		return result.UpdateResult{}, err
	}
	sum := sha256.Sum256(data)
	ref := "migration/core/" + hex.EncodeToString(sum[:6])
	when := e.opts.Now().UTC()
	if fi, err := os.Stat(filepath.Join(e.ws.Root(), "core.md")); err == nil {
		when = fi.ModTime().UTC()
	}
	rec := archive.Record{SourceID: ref, Role: "user", Time: when.Truncate(time.Second), Content: string(data)}
	archives, frames, err := e.archiveBatch(s, []archive.Record{rec})
	if err != nil {
		return result.UpdateResult{}, err
	}
	anchor := archive.AnchorFor(ref)
	if len(frames) == 1 {
		anchor = frames[0].Anchor
	}
	label := topic.NewFootnoteLabel("migration:" + ref)
	def := topic.FormatDefinition(topic.Definition{Label: label, Date: when.Format(time.DateOnly),
		Sources: []topic.Citation{{SourceID: ref, Path: relFrom(coreTopicPath, "sources/migration/_v2/core.md"), Anchor: anchor}}})
	taken := map[string]bool{}
	for _, p := range s.topicPaths {
		for _, b := range s.topics[p].file.Blocks() {
			taken[b.BlockID] = true
		}
	}
	content := strings.Join(append(topic.CitedBlocks(string(data), label, "migration:"+ref, taken), def), "\n\n") + "\n"
	return e.installLocked(ctx, Change{Kind: "migration", Actor: "owner", Archives: archives,
		Edits: []result.Edit{{Op: "create", Path: coreTopicPath, Content: &content}}})
}

// coreRenderedFile holds the SHA-256 of the last core.md render, in the
// runtime directory.
const coreRenderedFile = "core-rendered.sha256"

func coreDigest(data []byte) []byte {
	sum := sha256.Sum256(data)
	return []byte(hex.EncodeToString(sum[:]) + "\n")
}

// markCoreRendered records the digest of the core.md just rendered.
func (e *Engine) markCoreRendered(core []byte) error {
	return e.writeRuntime(coreRenderedFile, coreDigest(core), "the core.md render")
}

// renderedCore reports whether data is exactly the last core.md render.
func (e *Engine) renderedCore(data []byte) bool {
	old, err := os.ReadFile(filepath.Join(e.ws.RuntimeDir(), coreRenderedFile))
	return err == nil && bytes.Equal(old, coreDigest(data))
}
