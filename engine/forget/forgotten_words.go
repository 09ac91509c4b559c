package forget

import (
	"regexp"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/writer/distill"
	"scriptorium/workspace/topic"
)

// A distilled block can rest on several turns: a session's summary joins
// what two turns said, a restatement cites both speakers. Dropping only
// the forgotten turns' citations would keep their words in a block cited
// by another turn. So a block that keeps some citations goes all the same
// when it holds a content word that only the forgotten sources held
// (distill.Unsupported, the writer's never-invent check): a word its other
// sources support stays, as does a block written by hand whose words no
// source held in the first place.

// derivedFromForgotten reports whether block el of a file with defs holds
// a word only forgotten sources of v support.
func (fp *forgetPlan) derivedFromForgotten(v *engine.View, el topic.Element, defs map[string]*topic.Definition) bool {
	var all, kept []distill.Evidence
	forgotten := false
	for _, r := range el.Refs {
		d, ok := defs[r.Label]
		if !ok {
			continue
		}
		for _, c := range d.Sources {
			src, ok := v.Source(c.SourceID)
			if !ok {
				continue
			}
			at, _ := time.Parse(time.RFC3339, src.Time)
			ev := distill.Evidence{Text: src.Content, Time: at}
			all = append(all, ev)
			if fp.ids[c.SourceID] {
				forgotten = true
			} else {
				kept = append(kept, ev)
			}
		}
	}
	if !forgotten || len(kept) == 0 {
		return false
	}
	text := markerRE.ReplaceAllString(topic.BlockText(el), "")
	before := map[string]bool{}
	for _, w := range distill.Unsupported(text, all) {
		before[w] = true
	}
	for _, w := range distill.Unsupported(text, kept) {
		if !before[w] {
			return true
		}
	}
	return false
}

// markerRE matches a footnote reference in a block's text.
var markerRE = regexp.MustCompile(`\[\^[^\]\s]+\]`)

// dropOrphans removes the definitions of labels that no block left in the
// file references (a block removed by derivedFromForgotten kept some of
// its citations: without it they cite nothing).
func (fp *forgetPlan) dropOrphans(f *topic.File, edits map[int]elemEdit, labels map[string]bool) {
	if len(labels) == 0 {
		return
	}
	for i, el := range f.Elements {
		if ed, ok := edits[i]; ok && ed.remove || el.Kind != topic.KindBlock {
			continue
		}
		for _, r := range el.Refs {
			delete(labels, r.Label)
		}
	}
	for i, el := range f.Elements {
		if el.Def != nil && labels[el.Def.Label] {
			edits[i] = elemEdit{remove: true}
			fp.labels = append(fp.labels, el.Def.Label)
		}
	}
}
