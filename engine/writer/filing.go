package writer

import (
	"encoding/json"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer/distill"
	"scriptorium/render"
	"scriptorium/workspace/topic"
)

// filer files distilled facts into the topic files of one view: it reads
// the blocks already in the files the facts go to, lets distill.Merge
// decide add, cite or replace, and edits the files element by element
// (topicEdit). The offline writer and Redistill share it, so a fact
// becomes a block one way only.
type filer struct {
	v     *engine.View
	files map[string]*topicEdit // the topic files being changed
	used  takenIDs
	// existing are the blocks Merge compares facts against: the loaded
	// files' blocks and the ones this filer added, as they are now.
	existing []distill.Block
	loaded   map[string]bool
	merger   *distill.Merger
	// source resolves a cited ref to where it is archived; a turn archived
	// by the same install is not in v yet.
	source func(ref string) (path, anchor, at string, ok bool)
	// titles are the first headings of new files, by path (a chat's title).
	titles map[string]string
}

func newFiler(e *engine.Engine, v *engine.View) *filer {
	f := &filer{v: v, files: map[string]*topicEdit{}, loaded: map[string]bool{}, titles: map[string]string{}, merger: distill.NewMerger(),
		used: takenIDs{taken: e.BlockIDTaken(v), batch: map[string]bool{}}}
	f.source = func(ref string) (string, string, string, bool) {
		src, ok := v.Source(ref)
		if !ok {
			return "", "", "", false
		}
		return src.Path, src.Anchor, src.Time, true
	}
	return f
}

// load reads the blocks of topic file p into existing, once. core.md is
// the owner's: the writer never merges into it.
func (f *filer) load(p string) {
	if f.loaded[p] || p == render.CoreTopicPath {
		return
	}
	f.loaded[p] = true
	_, file, ok := f.v.Topic(p)
	if !ok {
		return
	}
	f.existing = append(f.existing, blocksOf(p, file, nil)...)
}

// blocksOf is the file's blocks as Merge sees them, minus those skip
// names (a turn block being redistilled).
func blocksOf(p string, file *topic.File, skip func(topic.Element) bool) []distill.Block {
	var out []distill.Block
	defs := file.Definitions()
	heading := ""
	for _, el := range file.Elements {
		if el.Kind == topic.KindHeading {
			heading = el.Heading
			continue
		}
		if el.Kind != topic.KindBlock || skip != nil && skip(el) {
			continue
		}
		b := distill.Block{ID: el.BlockID, Path: p, Heading: heading,
			Text: strings.TrimSpace(markerRE.ReplaceAllString(topic.BlockText(el), ""))}
		for _, ref := range el.Refs {
			if d, ok := defs[ref.Label]; ok {
				for _, c := range d.Sources {
					b.Cites = append(b.Cites, c.SourceID)
				}
			}
		}
		out = append(out, b)
	}
	return out
}

// merge loads the files facts go to and merges the facts against them.
func (f *filer) merge(facts []distill.Fact) []distill.Action {
	for _, ft := range facts {
		f.load(ft.Path)
	}
	return f.merger.Merge(f.existing, facts)
}

// apply carries out one merge action. An added block takes id, or one
// derived from seed, its path and text when id is "". It returns the id
// of the block acted on.
func (f *filer) apply(a distill.Action, id, seed string) string {
	switch a.Op {
	case distill.OpAdd:
		if id == "" {
			id = uniqueBlockID(f.used, seed+a.Path+":"+a.Text)
		}
		cites, date := f.citations(a.Path, a.Cites, nil)
		f.file(a.Path).add(a.Heading, id, a.Text, cites, date, f.titleOf(a))
		f.existing = append(f.existing, distill.Block{ID: id, Path: a.Path, Heading: a.Heading, Text: a.Text, Cites: a.Cites})
		return id
	case distill.OpCite, distill.OpReplace:
		old := blockCites(f.existing, a.Block)
		text := ""
		if a.Op == distill.OpReplace {
			text = a.Text
		}
		cites, date := f.citations(a.Path, a.Cites, old)
		f.file(a.Path).amend(a.Block, text, cites, date)
		for i := range f.existing {
			if f.existing[i].ID == a.Block {
				f.existing[i].Cites = appendNewRefs(f.existing[i].Cites, a.Cites)
				if text != "" {
					f.existing[i].Text = text
				}
			}
		}
		return a.Block
	}
	return ""
}

// titleOf is the first heading of a new topic file for a fact.
func (f *filer) titleOf(a distill.Action) string {
	if t := f.titles[a.Path]; t != "" {
		return t
	}
	return titleOf(a)
}

// titleOf is the first heading of a new topic file for a fact, from the
// fact alone.
func titleOf(a distill.Action) string {
	if len(a.Facts) == 0 {
		return "Notes"
	}
	ft := a.Facts[0]
	if ft.Kind == distill.KindSummary {
		return "Thread " + strings.TrimSuffix(strings.TrimPrefix(a.Path, "topics/threads/"), ".md")
	}
	if r, n := utf8.DecodeRuneInString(ft.Subject); n > 0 {
		// "the owner" heads its file as "The owner"; 张敏 stays whole.
		return string(unicode.ToUpper(r)) + ft.Subject[n:]
	}
	return "Notes"
}

func blockCites(bs []distill.Block, id string) []string {
	for _, b := range bs {
		if b.ID == id {
			return b.Cites
		}
	}
	return nil
}

// citations resolves the refs of a block at path, minus those it cites
// already, to citations relative to path, and gives the day of the first.
func (f *filer) citations(path string, refs, already []string) (out []topic.Citation, date string) {
	skip := map[string]bool{}
	for _, ref := range already {
		skip[ref] = true
	}
	for _, ref := range refs {
		if skip[ref] {
			continue
		}
		skip[ref] = true
		src, anchor, at, ok := f.source(ref)
		if !ok {
			continue
		}
		if date == "" && len(at) >= 10 {
			date = at[:10]
		}
		out = append(out, topic.Citation{SourceID: ref, Path: topic.RelPath(path, src), Anchor: anchor})
	}
	return out, date
}

func (f *filer) file(p string) *topicEdit {
	if te := f.files[p]; te != nil {
		return te
	}
	data, file, ok := f.v.Topic(p)
	te := &topicEdit{path: p, labels: map[string]bool{}}
	if ok {
		te.before, te.els = data, append([]topic.Element(nil), file.Elements...)
		for _, el := range file.Elements {
			if el.Kind == topic.KindFootnote {
				te.labels[el.Label] = true
			}
		}
	}
	f.files[p] = te
	return te
}

// edits are the changed files as whole-file edits, in path order.
func (f *filer) edits() []result.Edit {
	var paths []string
	for p := range f.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []result.Edit
	for _, p := range paths {
		te := f.files[p]
		if ed, ok := result.FileEdit(p, te.before, te.render()); ok {
			out = append(out, ed)
		}
	}
	return out
}

// sessionOf is the distiller's view of one thread's records, in
// conversation order. A speakerless user is the owner; a named speaker
// is the owner when the record says so (the owner's tier). owner, when
// not "", is what the owner is called (ownerName): a speakerless owner's
// facts and a named owner's alike are about owner, so they are filed in
// one people/<owner>.md whatever name a chat gave the owner.
func sessionOf(thread string, recs []distillRecord, owner string) distill.Session {
	provider, id, _ := strings.Cut(thread, "/")
	s := distill.Session{Provider: provider, ID: id, OwnerName: owner}
	speakers := map[string]bool{}
	for _, rec := range recs {
		t, _ := time.Parse(time.RFC3339, rec.Time)
		speaker := rec.SpeakerDisplay
		if speaker == "" {
			speaker = rec.SpeakerID
		}
		role := distill.RoleUser
		if rec.Role == distill.RoleAssistant {
			role = distill.RoleAssistant
		}
		if s.Project == "" {
			s.Project = rec.Project
		}
		if s.Title == "" {
			s.Title = rec.Title
		}
		s.Group = s.Group || rec.Group
		isOwner := role == distill.RoleUser && (speaker == "" || rec.Owner)
		if isOwner && speaker != "" && owner != "" {
			speaker = owner
		}
		if speaker != "" {
			speakers[speaker] = true
		}
		s.Turns = append(s.Turns, distill.Turn{Ref: rec.Ref, Time: t.UTC(), Role: role, Speaker: speaker,
			SpeakerID: rec.SpeakerID, Owner: isOwner, Content: rec.Content})
	}
	sort.SliceStable(s.Turns, func(i, j int) bool { return s.Turns[i].Time.Before(s.Turns[j].Time) })
	s.Group = s.Group || len(speakers) > 2
	return s
}

// projectRoot is the project directory of a session's working directory
// (topic.ProjectRoot): the nearest ancestor with a project file in v or
// among the files this filer writes, or a repository root, so a session
// in …/heron/deploy is filed under heron, where recall looks for it.
func (f *filer) projectRoot(cwd string) string { return projectRoot(f.v, f.files, cwd) }

func projectRoot(v *engine.View, writing map[string]*topicEdit, cwd string) string {
	if cwd == "" {
		return ""
	}
	known := topic.KnownProjects(v.TopicPaths())
	for p := range writing {
		for k := range topic.KnownProjects([]string{p}) {
			known[k] = true
		}
	}
	return topic.ProjectRoot(cwd, func(slug string) bool { return known[slug] })
}

// nodeMeta is what an imported turn's metadata says of its session: a
// coding session's working directory and a chat's title ("" when absent).
func nodeMeta(n sessions.Node) (project, title string) {
	var meta map[string]any
	if json.Unmarshal(n.Metadata, &meta) != nil {
		return "", ""
	}
	project, _ = meta[sessions.MetaProject].(string)
	title, _ = meta[sessions.MetaTitle].(string)
	return project, title
}

// appendNewRefs is xs with the refs of ys it lacks, in order.
func appendNewRefs(xs, ys []string) []string {
	seen := map[string]bool{}
	for _, x := range xs {
		seen[x] = true
	}
	out := append([]string(nil), xs...)
	for _, y := range ys {
		if !seen[y] {
			seen[y] = true
			out = append(out, y)
		}
	}
	return out
}
