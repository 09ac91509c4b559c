package writer

import (
	"context"
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
	"scriptorium/errcode"
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
		w := newWriter(e)
		if fileExists(w.sessionsPath()) {
			if r.store, err = w.sessionStore(); err != nil {
				return err
			}
			defer r.store.Close()
		}
		r.owner = w.ownerName(ctx, r.store)
		if opts.Thread != "" && !r.knownThread(opts.Thread) {
			return errcode.Errorf(errcode.NotFound, "no thread %q in the archive (a thread is <provider>/<thread>, as source-ids begin)", opts.Thread)
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
			return &errcode.Error{Code: errcode.Rejected, Violations: bad,
				Message: fmt.Sprintf("the redistilled topics are invalid: %d violation(s); nothing was proposed", len(bad))}
		}
		p := proposals.FromPlan(e, "write", "", v, plan)
		if err := proposals.Save(e, p); err != nil {
			return err
		}
		res.Proposal = p.ID
		if len(r.core) > 0 {
			w := newWriter(e)
			w.setCoreQueue(withQueued(w.queuedCore(), r.core))
		}
		for _, c := range p.Changed {
			res.Changed = append(res.Changed, c.Path)
		}
		return nil
	})
	return res, err
}

// redistiller is one redistill over one view.
type redistiller struct {
	e *engine.Engine
	v *engine.View
	*filer
	store *sessions.Store // sessions.db when there is one: titles and projects
	owner string          // what the owner is called (ownerName), "" for "the owner"
	// core are the blocks filed from the owner's standing preferences and
	// instructions: queued for the core.md proposal (corequeue.go), which
	// the first write after the owner accepted this one makes.
	core []coreBlock
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
		p, t := nodeMeta(n)
		if project == "" {
			project = p
		}
		if title == "" {
			title = t
		}
	}
	return project, title
}

func newRedistiller(e *engine.Engine, v *engine.View) *redistiller {
	return &redistiller{e: e, v: v, filer: newFiler(e, v)}
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
func (r *redistiller) run(only string, res *RedistillResult) ([]result.Edit, error) {
	linked := r.linkedIDs()
	byThread := map[string][]turnBlock{}
	var threads []string
	for _, p := range r.v.TopicPaths() {
		if p == render.CoreTopicPath {
			// core.md is the owner's: its blocks (copies of turn blocks
			// included, which the writer's core proposal makes) are neither
			// redistilled nor merged into.
			continue
		}
		_, f, _ := r.v.Topic(p)
		defs := f.Definitions()
		r.loaded[p] = true
		r.existing = append(r.existing, blocksOf(p, f, func(el topic.Element) bool {
			tb, ok := r.turnBlockOf(p, el, defs)
			if !ok || !threadMatches(tb.src.Thread, only) {
				return false
			}
			if linked[el.BlockID] {
				res.Kept++ // it stays, and is not merged into
				return true
			}
			if byThread[tb.src.Thread] == nil {
				threads = append(threads, tb.src.Thread)
			}
			byThread[tb.src.Thread] = append(byThread[tb.src.Thread], tb)
			return true
		})...)
	}
	sort.Strings(threads)
	for _, th := range threads {
		tbs := byThread[th]
		res.Threads = append(res.Threads, th)
		res.TurnBlocks += len(tbs)
		for _, tb := range tbs {
			r.file(tb.path).remove(tb.id)
		}
		recs := make([]distillRecord, len(tbs))
		for i, tb := range tbs {
			recs[i] = recordOf(tb.src)
		}
		s := sessionOf(th, recs, r.owner)
		s.Project, s.Title = r.sessionMeta(th)
		s.Project = r.projectRoot(s.Project)
		facts, summary := distill.DistilAll(s)
		if summary.Text != "" {
			summary.Path = threadPath(r.v, r.files, s, r.summaryFile(th))
			// The thread's block rests on the whole session: it cites every
			// turn it replaces, so none is left uncited.
			summary.Cites = nil
			for _, tb := range tbs {
				summary.Cites = append(summary.Cites, tb.src.Ref)
			}
			facts = append(facts, summary)
			r.titles[summary.Path] = threadTitle(s, summary) // headed as the writer heads it
		}
		reuse := map[string]string{} // a turn's ref → its old block id
		for _, tb := range tbs {
			reuse[tb.src.Ref] = tb.id
		}
		for _, a := range r.merger.Merge(r.existing, facts) {
			id := ""
			switch a.Op {
			case distill.OpAdd:
				res.Added++
				for _, ref := range a.Cites {
					if old := reuse[ref]; old != "" {
						id = old
						delete(reuse, ref)
						break
					}
				}
			case distill.OpCite:
				res.Cited++
			case distill.OpReplace:
				res.Replaced++
			}
			id = r.apply(a, id, "redistill:")
			if a.Op != distill.OpCite && coreFact(a) {
				r.core = append(r.core, coreBlock{path: a.Path, id: id})
			}
		}
	}
	return r.edits(), nil
}

// summaryFile is the thread file holding the summary block of thread in
// memory, "" when it has none: a turn block being redistilled is not one.
func (r *redistiller) summaryFile(thread string) string {
	for _, b := range r.existing {
		if strings.HasPrefix(b.Path, "topics/threads/") && b.Slot() == "summary:"+thread {
			return b.Path
		}
	}
	return ""
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
