package writer

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer/distill"
	"scriptorium/render"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// Redistill (issue 22 §1, "Existing memory") turns the topics the old
// offline writer filled one turn per block ("Mel: I got the job![^e-…]")
// into distilled ones, as a proposal the owner accepts or declines in the
// Passes pane (`proposals accept`): nothing changes in memory until then.
//
// A turn block is recognised by its exact shape, the one offlineEdits
// writes: the speaker's label, the turn's text, one footnote citing that
// one turn. A block the owner edited, a block another block links to, and
// every other block are left as they are. Each thread's turn blocks are
// distilled together (distill.DistilAll) and merged against the blocks
// already in memory (distill.Merge): a restated fact cites the turn, a
// changed value replaces the block's text, a new fact is added under its
// heading. Block ids stay stable: a block that is cited or replaced keeps
// its id, and a new fact takes the id of the turn block it came from, so a
// link or a note naming that id still finds the fact. The thread's block
// cites every turn it replaces, so no archived turn is left uncited (which
// `backfill` would write back one block per turn).

// RedistillOptions limits a redistill.
type RedistillOptions struct {
	// Thread limits it to one thread: "<provider>/<thread>" as a
	// source-id begins, or the thread name alone; "" means every thread.
	Thread string
}

// RedistillResult is what Redistill proposed (`write --redistill --json`).
type RedistillResult struct {
	// Proposal is the id of the stored proposal; "" when there was nothing
	// to redistill.
	Proposal string `json:"proposal"`
	// Threads are the threads whose turn blocks were distilled.
	Threads []string `json:"threads"`
	// TurnBlocks is how many turn blocks the proposal replaces; Kept how
	// many were left because another block links to them.
	TurnBlocks int `json:"turn_blocks"`
	Kept       int `json:"kept"`
	// Added, Cited and Replaced count the merge's actions.
	Added    int `json:"added"`
	Cited    int `json:"cited"`
	Replaced int `json:"replaced"`
	// Changed are the topic files the proposal changes.
	Changed  []string `json:"changed"`
	Revision int64    `json:"revision"`
}

// turnBlock is one block the old writer wrote for one turn.
type turnBlock struct {
	path string
	id   string
	src  result.Source
}

// Redistill proposes distilled topics for the turn blocks of every thread,
// or of opts.Thread. With nothing to redistill it stores nothing and
// returns an empty Proposal; an unknown thread is NOT_FOUND.
func Redistill(ctx context.Context, e *engine.Engine, opts RedistillOptions) (RedistillResult, error) {
	res := RedistillResult{Threads: []string{}, Changed: []string{}}
	if err := e.Authorize(trust.OpPropose); err != nil {
		return res, err
	}
	err := e.Locked(ctx, true, func(tx *engine.Tx) error {
		v, err := tx.View(ctx)
		if err != nil {
			return err
		}
		res.Revision = v.Revision
		r := newRedistiller(e, v)
		if w := newWriter(e); fileExists(w.sessionsPath()) {
			if r.store, err = w.sessionStore(); err != nil {
				return err
			}
			defer r.store.Close()
		}
		if opts.Thread != "" && !r.knownThread(opts.Thread) {
			return engine.Errorf(engine.CodeNotFound, "no thread %q in the archive (a thread is <provider>/<thread>, as source-ids begin)", opts.Thread)
		}
		edits, err := r.run(opts.Thread, &res)
		if err != nil || len(edits) == 0 {
			return err
		}
		plan, err := e.Plan(v, engine.Change{Kind: "write", Actor: trust.Owner, Edits: edits})
		if err != nil {
			return err
		}
		if bad := engine.NewViolations(v, plan.After); len(bad) > 0 {
			return &engine.Error{Code: engine.CodeRejected, Violations: bad,
				Message: fmt.Sprintf("the redistilled topics are invalid: %d violation(s); nothing was proposed", len(bad))}
		}
		p := proposals.FromPlan(e, "write", "", v, plan)
		if err := proposals.Save(e, p); err != nil {
			return err
		}
		res.Proposal = p.ID
		for _, c := range p.Changed {
			res.Changed = append(res.Changed, c.Path)
		}
		return nil
	})
	return res, err
}

// redistiller is one redistill over one view.
type redistiller struct {
	e     *engine.Engine
	v     *engine.View
	files map[string]*topicEdit // the topic files being changed
	used  takenIDs
	store *sessions.Store // sessions.db when there is one: titles and projects
}

// sessionMeta is what sessions.db knows of a thread that the archive does
// not: a coding session's working directory (its facts go to
// projects/<project>.md) and a chat's title (its thread file's name).
// Without sessions.db both are "", and the distiller does without.
func (r *redistiller) sessionMeta(thread string) (project, title string) {
	if r.store == nil {
		return "", ""
	}
	nodes, err := r.store.Forgettable(sessions.Selector{Thread: thread})
	if err != nil {
		return "", ""
	}
	for _, n := range nodes {
		var meta map[string]any
		if json.Unmarshal(n.Metadata, &meta) != nil {
			continue
		}
		if p, _ := meta[sessions.MetaProject].(string); project == "" {
			project = p
		}
		if t, _ := meta[sessions.MetaTitle].(string); title == "" {
			title = t
		}
	}
	return project, title
}

func newRedistiller(e *engine.Engine, v *engine.View) *redistiller {
	return &redistiller{e: e, v: v, files: map[string]*topicEdit{},
		used: takenIDs{taken: e.BlockIDTaken(v), batch: map[string]bool{}}}
}

func (r *redistiller) knownThread(t string) bool {
	for _, src := range r.v.Sources() {
		if threadMatches(src.Thread, t) {
			return true
		}
	}
	return false
}

func threadMatches(thread, want string) bool {
	if want == "" || thread == want {
		return true
	}
	_, name, ok := strings.Cut(thread, "/")
	return ok && name == want
}

// markerRE matches a footnote reference in a block's text.
var markerRE = regexp.MustCompile(`\[\^[^\]\s]+\]`)

// run finds the turn blocks, distils them thread by thread and returns
// the edits of the files it changed.
func (r *redistiller) run(only string, res *RedistillResult) ([]engine.Edit, error) {
	linked := r.linkedIDs()
	byThread := map[string][]turnBlock{}
	var threads []string
	var existing []distill.Block
	for _, p := range r.v.TopicPaths() {
		if p == render.CoreTopicPath {
			// core.md is the owner's: its blocks (copies of turn blocks
			// included, which the writer's core proposal makes) are neither
			// redistilled nor merged into.
			continue
		}
		_, f, _ := r.v.Topic(p)
		defs := f.Definitions()
		heading := ""
		for _, el := range f.Elements {
			if el.Kind == topic.KindHeading {
				heading = el.Heading
				continue
			}
			if el.Kind != topic.KindBlock {
				continue
			}
			tb, ok := r.turnBlockOf(p, el, defs)
			if ok && threadMatches(tb.src.Thread, only) {
				if linked[el.BlockID] {
					res.Kept++
					continue
				}
				if byThread[tb.src.Thread] == nil {
					threads = append(threads, tb.src.Thread)
				}
				byThread[tb.src.Thread] = append(byThread[tb.src.Thread], tb)
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
			existing = append(existing, b)
		}
	}
	sort.Strings(threads)
	for _, th := range threads {
		tbs := byThread[th]
		res.Threads = append(res.Threads, th)
		res.TurnBlocks += len(tbs)
		for _, tb := range tbs {
			r.file(tb.path).remove(tb.id)
		}
		s := sessionOf(th, tbs)
		s.Project, s.Title = r.sessionMeta(th)
		facts, summary := distill.DistilAll(s)
		if summary.Text != "" {
			// The thread's block rests on the whole session: it cites every
			// turn it replaces, so none is left uncited.
			summary.Cites = nil
			for _, tb := range tbs {
				summary.Cites = append(summary.Cites, tb.src.Ref)
			}
			facts = append(facts, summary)
		}
		reuse := map[string]string{} // a turn's ref → its old block id
		for _, tb := range tbs {
			reuse[tb.src.Ref] = tb.id
		}
		for _, a := range distill.Merge(existing, facts) {
			switch a.Op {
			case distill.OpAdd:
				res.Added++
				id := ""
				for _, ref := range a.Cites {
					if old := reuse[ref]; old != "" {
						id = old
						delete(reuse, ref)
						break
					}
				}
				if id == "" {
					id = uniqueBlockID(r.used, "redistill:"+a.Path+":"+a.Text)
				}
				cites, date := r.citations(a.Path, a.Cites, nil)
				r.file(a.Path).add(a.Heading, id, a.Text, cites, date, titleOf(a))
				existing = append(existing, distill.Block{ID: id, Path: a.Path, Heading: a.Heading, Text: a.Text, Cites: a.Cites})
			case distill.OpCite, distill.OpReplace:
				if a.Op == distill.OpCite {
					res.Cited++
				} else {
					res.Replaced++
				}
				old := blockCites(existing, a.Block)
				text := ""
				if a.Op == distill.OpReplace {
					text = a.Text
				}
				cites, date := r.citations(a.Path, a.Cites, old)
				r.file(a.Path).amend(a.Block, text, cites, date)
				for i := range existing {
					if existing[i].ID == a.Block {
						existing[i].Text, existing[i].Cites = a.Text, a.Cites
					}
				}
			}
		}
	}
	return r.edits()
}

// turnBlockOf reports whether el is a block the old writer wrote for one
// turn, exactly as it wrote it.
func (r *redistiller) turnBlockOf(p string, el topic.Element, defs map[string]*topic.Definition) (turnBlock, bool) {
	if len(el.Refs) != 1 || len(el.Links) > 0 {
		return turnBlock{}, false
	}
	d, ok := defs[el.Refs[0].Label]
	if !ok || len(d.Sources) != 1 {
		return turnBlock{}, false
	}
	src, ok := r.v.Source(d.Sources[0].SourceID)
	if !ok || src.Pending || src.Forgotten {
		return turnBlock{}, false
	}
	rec := recordOf(src)
	text := topic.BlockSafe(rec.Content)
	if t, err := time.Parse(time.RFC3339, rec.Time); err == nil {
		text = topic.BlockSafe(index.AnnotateDates(rec.Content, t))
	}
	who := rec.Label
	if who == "" {
		who = rec.Role
	}
	if text == "" || topic.BlockText(el) != who+": "+text+"[^"+el.Refs[0].Label+"]" {
		return turnBlock{}, false
	}
	return turnBlock{path: p, id: el.BlockID, src: src}, true
}

// linkedIDs are the block ids some link names: such a block stays.
func (r *redistiller) linkedIDs() map[string]bool {
	out := map[string]bool{}
	for _, p := range r.v.TopicPaths() {
		_, f, _ := r.v.Topic(p)
		for _, el := range f.Elements {
			for _, l := range el.Links {
				if l.BlockID != "" {
					out[l.BlockID] = true
				}
			}
		}
	}
	return out
}

// sessionOf is the distiller's view of one thread's turn blocks, in
// conversation order.
func sessionOf(thread string, tbs []turnBlock) distill.Session {
	provider, id, _ := strings.Cut(thread, "/")
	s := distill.Session{Provider: provider, ID: id}
	speakers := map[string]bool{}
	for _, tb := range tbs {
		rec := recordOf(tb.src)
		t, _ := time.Parse(time.RFC3339, rec.Time)
		speaker := rec.SpeakerDisplay
		if speaker == "" {
			speaker = rec.SpeakerID
		}
		role := distill.RoleUser
		if rec.Role == distill.RoleAssistant {
			role = distill.RoleAssistant
		}
		if speaker != "" {
			speakers[speaker] = true
		}
		s.Turns = append(s.Turns, distill.Turn{Ref: rec.Ref, Time: t.UTC(), Role: role, Speaker: speaker,
			SpeakerID: rec.SpeakerID, Owner: role == distill.RoleUser && speaker == "", Content: rec.Content})
	}
	sort.SliceStable(s.Turns, func(i, j int) bool { return s.Turns[i].Time.Before(s.Turns[j].Time) })
	s.Group = len(speakers) > 2
	return s
}

// titleOf is the first heading of a new topic file for a fact.
func titleOf(a distill.Action) string {
	if len(a.Facts) == 0 {
		return "Notes"
	}
	f := a.Facts[0]
	if f.Kind == distill.KindSummary {
		return "Thread " + strings.TrimSuffix(strings.TrimPrefix(a.Path, "topics/threads/"), ".md")
	}
	if f.Subject != "" {
		// "the owner" heads its file as "The owner".
		return strings.ToUpper(f.Subject[:1]) + f.Subject[1:]
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
func (r *redistiller) citations(path string, refs, already []string) (out []topic.Citation, date string) {
	skip := map[string]bool{}
	for _, ref := range already {
		skip[ref] = true
	}
	for _, ref := range refs {
		if skip[ref] {
			continue
		}
		skip[ref] = true
		src, ok := r.v.Source(ref)
		if !ok {
			continue
		}
		if date == "" && len(src.Time) >= 10 {
			date = src.Time[:10]
		}
		out = append(out, topic.Citation{SourceID: ref, Path: topic.RelPath(path, src.Path), Anchor: src.Anchor})
	}
	return out, date
}

func (r *redistiller) file(p string) *topicEdit {
	if te := r.files[p]; te != nil {
		return te
	}
	data, f, ok := r.v.Topic(p)
	te := &topicEdit{path: p, labels: map[string]bool{}}
	if ok {
		te.before, te.els = data, append([]topic.Element(nil), f.Elements...)
		for _, el := range f.Elements {
			if el.Kind == topic.KindFootnote {
				te.labels[el.Label] = true
			}
		}
	}
	r.files[p] = te
	return te
}

// edits are the changed files as whole-file edits, in path order.
func (r *redistiller) edits() ([]engine.Edit, error) {
	var paths []string
	for p := range r.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []engine.Edit
	for _, p := range paths {
		te := r.files[p]
		after := te.render()
		var cur []byte
		if te.before != nil {
			cur = te.before
		}
		if ed, ok := engine.FileEdit(p, cur, after); ok {
			out = append(out, ed)
		}
	}
	return out, nil
}
