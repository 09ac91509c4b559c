package writer

import (
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/engine/writer/distill"
	"scriptorium/render"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// A model is asked to merge with the blocks it is shown, and does not
// always: it restates a fact memory holds, or adds a person's new job
// beside the old one. Its answer then goes through the same merge as the
// offline writer's facts (distill.Merger, applied by the filer): a new
// block that restates a block of its file becomes a citation on that
// block, a changed value of the same slot replaces that block's text
// and cites both, and two new blocks that say the same are one. Thread
// files are left as the model wrote them: a session's summary is its own.

// mergeModelEdits returns the model's edits with its new blocks merged
// against the blocks of their files, or edits unchanged when nothing
// merges (or the edits cannot be planned: the install says why).
func (w *writer) mergeModelEdits(v *engine.View, recs []distillRecord, edits []result.Edit) []result.Edit {
	plan, err := w.e.Plan(v, engine.Change{Kind: "write", Actor: trust.Owner, Edits: edits})
	if err != nil {
		return edits
	}
	after := plan.After
	if w.merger == nil {
		w.merger = distill.NewMerger()
	}
	byRef := map[string]distillRecord{}
	for _, r := range recs {
		byRef[r.Ref] = r
	}
	f := &filer{v: after, files: map[string]*topicEdit{}, loaded: map[string]bool{}, titles: map[string]string{}, merger: w.merger}
	f.source = func(ref string) (string, string, string, bool) {
		if r, ok := byRef[ref]; ok {
			return r.Path, r.Anchor, r.Time, true
		}
		if src, ok := v.Source(ref); ok {
			return src.Path, src.Anchor, src.Time, true
		}
		return "", "", "", false
	}
	taken := w.e.BlockIDTaken(v)
	merged := false
	for _, p := range plan.Changed {
		if !strings.HasPrefix(p, "topics/") || strings.HasPrefix(p, "topics/threads/") || p == render.CoreTopicPath {
			continue
		}
		_, file, ok := after.Topic(p)
		if !ok {
			continue
		}
		isNew := func(el topic.Element) bool { return !taken(el.BlockID) }
		existing := blocksOf(p, file, isNew)
		var facts []distill.Fact
		var ids []string
		subject := fileTitle(file)
		for _, b := range blocksOf(p, file, func(el topic.Element) bool { return !isNew(el) }) {
			facts = append(facts, distill.Fact{Subject: subject, Kind: distill.KindFact, Theme: b.Heading,
				Key: distill.BlockSlot(b.Text, p, b.Heading), Text: b.Text, Cites: b.Cites, Path: p})
			ids = append(ids, b.ID)
		}
		if len(facts) == 0 || len(existing) == 0 && len(facts) == 1 {
			continue
		}
		covered := map[string]bool{}
		for _, a := range f.merger.Merge(existing, facts) {
			own := blockIDsOf(a.Facts, facts, ids)
			for _, id := range own {
				covered[id] = true
			}
			keep := ""
			switch a.Op {
			case distill.OpAdd:
				if len(own) < 2 {
					continue
				}
				keep, own = own[0], own[1:] // the first new block says it; the others cite on it
			case distill.OpCite, distill.OpReplace:
				keep = a.Block
			}
			te := f.file(p)
			for _, id := range own {
				te.remove(id)
			}
			text := ""
			if a.Op == distill.OpReplace {
				text = a.Text
			}
			cites, date := f.citations(p, a.Cites, blockCites(existing, keep))
			if keep == a.Block || text != "" {
				te.amend(keep, text, cites, date)
			} else {
				te.amend(keep, "", uncited(cites, facts, ids, keep), date)
			}
			merged = true
		}
		// A new block no action stands for restates a block that cites
		// its turns already (Merge asks nothing for it): it goes.
		for _, id := range ids {
			if !covered[id] {
				f.file(p).remove(id)
				merged = true
			}
		}
	}
	if !merged {
		return edits
	}
	var out []result.Edit
	for _, p := range plan.Changed {
		before, _, _ := v.Topic(p)
		now, _ := plan.Bytes(p)
		if te := f.files[p]; te != nil {
			now = te.render()
		}
		if ed, ok := result.FileEdit(p, before, now); ok {
			out = append(out, ed)
		}
	}
	return out
}

// blockIDsOf are the ids of the new blocks that stand for facts of an
// action (facts[i] is block ids[i]), in order.
func blockIDsOf(of, facts []distill.Fact, ids []string) []string {
	var out []string
	used := map[int]bool{}
	for _, ft := range of {
		for i := range facts {
			if !used[i] && facts[i].Text == ft.Text && strings.Join(facts[i].Cites, ",") == strings.Join(ft.Cites, ",") {
				used[i] = true
				out = append(out, ids[i])
				break
			}
		}
	}
	return out
}

// uncited are the citations of cites that block keep (a new block, whose
// own footnotes are in the file already) does not hold yet.
func uncited(cites []topic.Citation, facts []distill.Fact, ids []string, keep string) []topic.Citation {
	has := map[string]bool{}
	for i, id := range ids {
		if id == keep {
			for _, c := range facts[i].Cites {
				has[c] = true
			}
		}
	}
	var out []topic.Citation
	for _, c := range cites {
		if !has[c.SourceID] {
			out = append(out, c)
		}
	}
	return out
}

// fileTitle is a topic file's first heading ("Nadia Haddad"), "" for none:
// the subject of a person's or a project's file.
func fileTitle(file *topic.File) string {
	for _, el := range file.Elements {
		if el.Kind == topic.KindHeading {
			return el.Heading
		}
	}
	return ""
}
