package engine

import (
	"bytes"
	"iter"
	"time"

	"scriptorium/engine/deps"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/workspace/manifest"
	"scriptorium/workspace/topic"
)

// Corpus is the search service's read-only view of one snapshot, record
// by record: topic files with their parsed blocks and the blocks' trust,
// archives' records in file order with their visibility, a record's
// neighbours, the same-parse identity of a file between two snapshots, the
// files' signatures. engine/search builds the documents from it, of
// visible records and trusted blocks only: pending content never reaches
// the index or an embedder. Equal values read the same snapshot.
type Corpus struct {
	s    *snapshot
	root string
}

// CorpusOf is the Corpus of a view (what a service previews an index
// change or a vector scrub with).
func (e *Engine) CorpusOf(v *View) Corpus { return Corpus{s: v.s, root: e.ws.Root()} }

// Fingerprint summarises every memory file's path and signature and the
// promotion ledger (see fingerprint).
func (c Corpus) Fingerprint() string { return c.s.fingerprint(c.root) }

// Content is a file's bytes as the snapshot holds them.
func (c Corpus) Content(p string) ([]byte, bool) { return c.s.snapshotContent(p) }

// TopicPaths lists the topic files, sorted.
func (c Corpus) TopicPaths() []string { return c.s.topicPaths }

// ArchivePaths lists the source archives, sorted.
func (c Corpus) ArchivePaths() []string { return c.s.archPaths }

// Files is how many memory files the snapshot holds.
func (c Corpus) Files() int { return len(c.s.topicPaths) + len(c.s.archPaths) }

// Meta is the index meta written with every build or update from c: its
// fingerprint and its racy files.
func (c Corpus) Meta(now time.Time) map[string]string {
	return map[string]string{index.FingerprintKey: c.Fingerprint(), index.RacyKey: c.s.racyFiles(now)}
}

// Sig is the signature file p was read with; zero for a file written by
// a transaction in memory or read through a stage (it is racy).
func (c Corpus) Sig(p string) (manifest.Sig, bool) {
	if tf, ok := c.s.topics[p]; ok {
		return toManifestSig(tf.sig), true
	}
	if a, ok := c.s.archives[p]; ok {
		return toManifestSig(a.sig), true
	}
	return manifest.Sig{}, false
}

// Promoted is the set of promoted source-ids; it must not be modified.
func (c Corpus) Promoted() map[string]bool { return c.s.promoted }

// Racy reports whether file p of c is racy at now: changed so shortly
// before that its signature cannot be trusted, so its hash is recorded.
func (c Corpus) Racy(p string, now time.Time) bool {
	if tf, ok := c.s.topics[p]; ok {
		return tf.sig.racy(now)
	}
	if a, ok := c.s.archives[p]; ok {
		return a.sig.racy(now)
	}
	return false
}

// Root is the workspace directory the files are read from.
func (c Corpus) Root() string { return c.root }

// TopicFile is a topic file of a Corpus.
type TopicFile struct {
	s  *snapshot
	tf *topicFile
}

// Topic is topic file p, if the snapshot holds it.
func (c Corpus) Topic(p string) (TopicFile, bool) {
	tf, ok := c.s.topics[p]
	return TopicFile{s: c.s, tf: tf}, ok
}

// SameTopic reports whether c and other hold topic file p as the same
// parse (an unchanged file is shared between snapshots).
func (c Corpus) SameTopic(other Corpus, p string) bool {
	tf, ok := c.s.topics[p]
	return ok && other.s.topics[p] == tf
}

// Path is the file's workspace path.
func (t TopicFile) Path() string { return t.tf.path }

// File is the file's parse (blocks, ids, footnotes); shared, read-only.
func (t TopicFile) File() *topic.File { return t.tf.file }

// Definitions are the file's footnote definitions by label; read-only.
func (t TopicFile) Definitions() map[string]*topic.Definition { return t.tf.definitions() }

// Trusted reports whether block b of the file is trusted: every source it
// cites resolves and none is pending.
func (t TopicFile) Trusted(b topic.Element) bool { return t.s.blockTrusted(t.tf, b) }

// Deps is what the file depends on (the paths its citations and links
// reach, the source-ids it cites), built once per parse.
func (t TopicFile) Deps() *deps.Topic { return t.tf.deps() }

// Record is an archived record of a Corpus.
type Record struct {
	s *snapshot
	e *sourceEntry
}

// Records are archive p's records in file order, pending, forgotten and
// shadowed ones included (check Visible).
func (c Corpus) Records(p string) iter.Seq[Record] {
	return func(yield func(Record) bool) {
		if a, ok := c.s.archives[p]; ok {
			for _, e := range a.sources {
				if !yield(Record{c.s, e}) {
					return
				}
			}
		}
	}
}

// Source is the record preferred for a source-id (a v2 frame over a
// legacy record, the first of duplicates).
func (c Corpus) Source(ref string) (Record, bool) {
	e, ok := c.s.sources.Get(ref)
	return Record{c.s, e}, ok
}

// At is the record at an anchor of an archive.
func (c Corpus) At(path, anchor string) (Record, bool) {
	e, ok := c.s.anchorEntry(path, anchor)
	return Record{c.s, e}, ok
}

// SameArchive reports whether c and other hold archive p as the same
// parse: a file re-read or rewritten is parsed into new slices, an
// unchanged one shares them.
func (c Corpus) SameArchive(other Corpus, p string) bool {
	a, ok := c.s.archives[p]
	b, ok2 := other.s.archives[p]
	return ok && ok2 && sameParse(a, b)
}

// View is the record as the snapshot resolved it, its content included
// even when it is pending: only a Visible record may become a document.
func (r Record) View() result.SourceView { return r.e.view() }

// Ref is the record's source-id.
func (r Record) Ref() string { return r.e.ref }

// Path is the record's archive.
func (r Record) Path() string { return r.e.file.path }

// Anchor is the record's anchor in its archive.
func (r Record) Anchor() string { return r.e.anchor }

// Visible reports whether the record is searchable: trusted (never
// pending), not forgotten, and the record preferred for its source-id.
func (r Record) Visible() bool {
	return !r.e.pending() && !r.e.forgotten() && r.s.sources.Lookup(r.e.ref) == r.e
}

// Before is the nearest visible record before r in its archive
// (conversation order): the turn r usually answers.
func (r Record) Before() (Record, bool) {
	list, at := r.e.file.sources, r.at()
	for i := at - 1; at >= 0 && i >= 0; i-- {
		if n := (Record{r.s, list[i]}); n.Visible() {
			return n, true
		}
	}
	return Record{}, false
}

// After is the nearest visible record after r in its archive: the turn
// that holds r as its context.
func (r Record) After() (Record, bool) {
	list, at := r.e.file.sources, r.at()
	for i := at + 1; at >= 0 && i < len(list); i++ {
		if n := (Record{r.s, list[i]}); n.Visible() {
			return n, true
		}
	}
	return Record{}, false
}

// at is r's index in its archive's records, -1 if it is not there.
func (r Record) at() int {
	list := r.e.file.sources
	if at := r.e.pos; at >= 0 && at < len(list) && list[at] == r.e {
		return at
	}
	// Not where it was listed: search (doing so for each record of a long
	// chat was quadratic, which pos avoids).
	for i, e := range list {
		if e == r.e {
			return i
		}
	}
	return -1
}

// sameParse reports whether two archive values hold the same parse.
func sameParse(a, b *archiveFile) bool {
	if a.legacy != b.legacy || len(a.frames) != len(b.frames) || len(a.records) != len(b.records) || a.stopErr != b.stopErr {
		return false
	}
	if len(a.frames) > 0 {
		return &a.frames[0] == &b.frames[0]
	}
	if len(a.records) > 0 {
		return &a.records[0] == &b.records[0]
	}
	return bytes.Equal(a.data, b.data)
}
