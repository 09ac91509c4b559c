package search

import (
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/workspace/topic"
)

// The documents a snapshot holds for the index, built from the core's
// record-level read (engine.Corpus): trusted blocks and visible records,
// each with who said it, as far as that is trusted, and the conversation
// around it. Pending sources, pending blocks and records shadowed by
// another of their source-id are not documents at all, and what a
// document carries besides its own text comes from visible records only:
// pending text never reaches the index or an embedder, not even as
// context.

// Docs is every searchable document of c, sorted by id.
func Docs(c engine.Corpus) []index.Doc {
	docs := DocMap(c)
	list := make([]index.Doc, 0, len(docs))
	for _, d := range docs {
		list = append(list, d)
	}
	sortDocs(list)
	return list
}

// DocMap is every searchable document of c by id.
func DocMap(c engine.Corpus) map[string]index.Doc {
	docs := map[string]index.Doc{}
	_ = eachDoc(c, func(d *index.Doc) error {
		docs[d.ID] = *d
		return nil
	})
	return docs
}

// eachDoc yields every searchable document of c, each id once, file by
// file (each file's in id order): what a rebuild streams into the index
// without holding them all (issue 26). A document's id holds its file's
// path, so a file's documents are all the repeats of an id there can be,
// and the last of them wins, as in DocMap.
func eachDoc(c engine.Corpus, yield func(*index.Doc) error) error {
	file := map[string]index.Doc{}
	var list []index.Doc
	emit := func() error {
		list = list[:0]
		for _, d := range file {
			list = append(list, d)
		}
		clear(file)
		sortDocs(list)
		for i := range list {
			if err := yield(&list[i]); err != nil {
				return err
			}
		}
		clear(list)
		return nil
	}
	for _, p := range c.TopicPaths() {
		t, _ := c.Topic(p)
		addTopicDocs(c, file, t, nil)
		if err := emit(); err != nil {
			return err
		}
	}
	for _, p := range c.ArchivePaths() {
		for r := range c.Records(p) {
			addSourceDoc(file, r)
		}
		withFrames(c, file)
		if err := emit(); err != nil {
			return err
		}
	}
	return nil
}

// addTopicDocs adds the documents of a topic file's trusted blocks; with
// only set, just the blocks it names.
func addTopicDocs(c engine.Corpus, docs map[string]index.Doc, t engine.TopicFile, only map[string]bool) {
	defs := t.Definitions()
	for _, b := range t.File().Blocks() {
		if (only != nil && !only[b.BlockID]) || !t.Trusted(b) {
			continue
		}
		d := index.Doc{ID: "topic:" + t.Path() + "#^" + b.BlockID, Kind: index.KindTopic, Path: t.Path(),
			Anchor: "^" + b.BlockID, Ref: b.BlockID, Text: topic.BlockText(b), Visible: true}
		var cited []string
		for _, r := range b.Refs {
			if def, ok := defs[r.Label]; ok {
				if tm, err := time.Parse(time.DateOnly, def.Date); err == nil && tm.After(d.Time) {
					d.Time = tm
				}
				for _, cit := range def.Sources {
					cited = append(cited, cit.SourceID)
				}
			}
		}
		d.Who, d.Context = blockSources(c, cited)
		docs[d.ID] = d
	}
}

// addSourceDoc adds a record's document when it is visible.
func addSourceDoc(docs map[string]index.Doc, r engine.Record) {
	if !r.Visible() {
		return
	}
	v := r.View()
	t, _ := time.Parse(time.RFC3339, v.Time)
	d := index.Doc{ID: "source:" + v.Path + "#" + v.Anchor, Kind: index.KindSource, Path: v.Path, Anchor: v.Anchor,
		Ref: v.Ref, Time: t, Text: v.Content, SpeakerID: v.SpeakerID, SpeakerDisplay: v.SpeakerDisplay,
		SpeakerLabel: v.SpeakerLabel, SpeakerTrusted: v.SpeakerTrusted, Visible: true,
		Who: whoOf(v), Context: turnBefore(r)}
	docs[d.ID] = d
}

// whoOf is the speaker a record's who field holds: its id and display
// name when they come from a v2 speaker-id (trusted), nothing otherwise. A
// legacy "[name (id)]" hint was parsed out of message text, so it never
// counts as who spoke.
func whoOf(v result.SourceView) string {
	if !v.SpeakerTrusted {
		return ""
	}
	return strings.TrimSpace(v.SpeakerDisplay + " " + v.SpeakerID)
}

// blockSources returns the who and context of a block from the visible
// sources it cites: their speakers and their text. (Not the turns those
// answer: a block is rebuilt when a source it cites changes trust, not
// when its neighbour does.)
func blockSources(c engine.Corpus, refs []string) (who, context string) {
	var names, texts []string
	seen := map[string]bool{}
	for _, id := range refs {
		r, ok := c.Source(id)
		if !ok || seen[id] || !r.Visible() {
			continue
		}
		seen[id] = true
		v := r.View()
		if w := whoOf(v); w != "" && !seen["who:"+w] {
			seen["who:"+w] = true
			names = append(names, w)
		}
		texts = append(texts, v.Content)
	}
	return strings.Join(names, "\n"), strings.Join(texts, "\n")
}

// turnBefore is the context of a record: the visible turn before it,
// which is usually what it answers.
func turnBefore(r engine.Record) string {
	if b, ok := r.Before(); ok {
		return b.View().Content
	}
	return ""
}

// holds reports whether c still has the document of a hit: a trusted
// block of that id in that file, or the visible record at that anchor
// with that source-id (what a stale index's answer keeps).
func holds(c engine.Corpus, h index.Hit) bool {
	if h.Kind == index.KindSource {
		r, ok := c.At(h.Path, h.Anchor)
		return ok && r.Ref() == h.Ref && r.Visible()
	}
	t, ok := c.Topic(h.Path)
	if !ok {
		return false
	}
	b, ok := t.File().Block(h.Ref)
	return ok && t.Trusted(b)
}

// hitText is the text of a hit's document in c (the index stores no
// text), for its snippet.
func hitText(c engine.Corpus, h index.Hit) string {
	if h.Kind == index.KindSource {
		// The record indexed is the one preferred for its source-id (the
		// first of duplicates), which the anchor may not hold.
		if r, ok := c.Source(h.Ref); ok && r.Path() == h.Path && r.Anchor() == h.Anchor {
			return r.View().Content
		}
		if r, ok := c.At(h.Path, h.Anchor); ok {
			return r.View().Content
		}
		return ""
	}
	if t, ok := c.Topic(h.Path); ok {
		if b, ok := t.File().Block(h.Ref); ok {
			return topic.BlockText(b)
		}
	}
	return ""
}
